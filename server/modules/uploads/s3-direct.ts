import { userIdOf, type Actor } from '../access/actor.js';
import type { ResolvedScope } from '../access/scope.js';
import type { DriveFacade } from '../drive/facade.js';
import type { QuotaService } from '../drive/quota.js';
import { Conflict, NotFound, ValidationError } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { S3Disk, StoredPart } from '../../storage/s3-disk.js';
import type { S3UploadRow } from '../../db/types.js';
import { MULTIPART_THRESHOLD, partCountFor, partSizeFor } from './s3-sizing.js';
import type { S3UploadsRepository } from './s3-repository.js';
import { conflictMode, type UploadsService } from './service.js';
import { UPLOAD_NOT_FOUND } from './tus-files.js';
import { formatBytes } from '../../lib/format.js';

const OCTET_STREAM = 'application/octet-stream';
export const DIRECT_UPLOADS_OFF = 'Direct uploads to storage are not enabled on this server.';

export interface DirectFile {
  filename: string;
  mime?: string | null | undefined;
  size: number;
  metadata?: DirectMetadata | undefined;
}

export interface DirectMetadata {
  parentId?: string | null | undefined;
  relativePath?: string | null | undefined;
  /** A taken name: as for any upload (rename, replace, or ask: 409 before anything is signed). */
  onConflict?: string | null | undefined;
}

export interface S3DirectDeps {
  /** Null when the drive's disk is not S3 or direct uploads are switched off. */
  disk: S3Disk | null;
  urlExpiresSeconds: number;
  uploads: UploadsService;
  drive: DriveFacade;
  quota: QuotaService;
  repo: S3UploadsRepository;
  resolveScope(actor: Actor, workspaceId: number | null): Promise<ResolvedScope>;
  /** Whether a file entry points at bytes under this disk prefix (a finish committed). */
  committedUnder(prefix: string): Promise<boolean>;
}

const bare = (etag: string) => etag.replace(/"/g, '');

/**
 * Direct uploads to S3 (spec §7 "Upload calls", §9 sizing): the browser sends
 * the bytes to the bucket through presigned URLs; the app checks the upload
 * restrictions and reserves the space before it signs anything, signs only
 * for the upload's own uploader, checks what arrived against the store and
 * the reservation, and then turns the object into a file entry where it lies.
 */
export class S3DirectUploads {
  constructor(private readonly deps: S3DirectDeps) {}

  get enabled(): boolean {
    return this.deps.disk !== null;
  }

  private disk(): S3Disk {
    if (!this.deps.disk) throw NotFound(DIRECT_UPLOADS_OFF);
    return this.deps.disk;
  }

  /** Restrictions checked and the space reserved: nothing is signed for a file that could not be kept. */
  private async open(actor: Actor, workspaceId: number | null, file: DirectFile, kind: S3UploadRow['kind'], partSize: number | null) {
    const name = file.filename;
    const mime = file.mime || OCTET_STREAM;
    await this.deps.uploads.check({ name, size: file.size, mime });
    const segments = this.deps.uploads.folderSegments(file.metadata?.relativePath);
    const scope = await this.deps.resolveScope(actor, workspaceId);
    const parentId = file.metadata?.parentId || null;
    const onConflict = conflictMode(file.metadata?.onConflict);
    await this.deps.drive.refuseTakenName(actor, scope, { parentId, segments }, name, onConflict);
    const charge = await this.deps.drive.payerForUpload(actor, scope, { parentId, segments }, name, onConflict);
    const id = randomToken(24);
    await this.deps.quota.reserve({ ...charge, uploaderId: userIdOf(actor) }, id, file.size, 's3');
    const upload = {
      id,
      kind,
      user_id: userIdOf(actor),
      workspace_id: workspaceId,
      parent_id: parentId,
      relative_path: segments.length ? (file.metadata?.relativePath ?? null) : null,
      name,
      mime,
      size: file.size,
      file_name: randomToken(12),
      part_size: partSize,
      s3_upload_id: null,
    };
    return upload;
  }

  async presignSimple(actor: Actor, workspaceId: number | null, file: DirectFile) {
    const disk = this.disk();
    if (file.size >= MULTIPART_THRESHOLD) {
      throw ValidationError.field('size', 'Files of :size or more are uploaded in parts.', { size: formatBytes(MULTIPART_THRESHOLD) });
    }
    const upload = await this.open(actor, workspaceId, file, 'simple', null);
    try {
      await this.deps.repo.insert(upload);
      const url = await disk.signedPut(`${upload.id}/${upload.file_name}`, {
        expiresIn: this.deps.urlExpiresSeconds,
        size: file.size,
        contentType: upload.mime,
      });
      return { url, acl: 'private', key: upload.id, contentType: upload.mime };
    } catch (error) {
      await this.forget(upload.id);
      throw error;
    }
  }

  async createMultipart(actor: Actor, workspaceId: number | null, file: DirectFile) {
    const disk = this.disk();
    const partSize = partSizeFor(file.size);
    const upload = await this.open(actor, workspaceId, file, 'multipart', partSize);
    try {
      const uploadId = await disk.createMultipart(`${upload.id}/${upload.file_name}`, upload.mime);
      await this.deps.repo.insert({ ...upload, s3_upload_id: uploadId });
      return { uploadId, key: upload.id, partSize, partCount: partCountFor(file.size, partSize) };
    } catch (error) {
      await this.forget(upload.id);
      throw error;
    }
  }

  /** The caller's own multipart upload by its key and store id; anyone else's is the 404 of an unknown one. */
  private async own(actor: Actor, key: string, uploadId?: string): Promise<S3UploadRow> {
    const row = await this.deps.repo.findOwn(key, userIdOf(actor));
    if (!row || (uploadId !== undefined && (row.kind !== 'multipart' || row.s3_upload_id !== uploadId))) throw NotFound(UPLOAD_NOT_FOUND);
    return row;
  }

  private async keepAlive(id: string): Promise<void> {
    await this.deps.quota.extend(id, await this.deps.repo.touch(id));
  }

  /** What the store already holds, so a resumed upload sends only the rest. */
  async uploadedParts(actor: Actor, key: string, uploadId: string) {
    const disk = this.disk();
    const row = await this.own(actor, key, uploadId);
    if (row.state !== 'open') throw Conflict('This upload is already complete.');
    await this.keepAlive(row.id);
    const parts = await disk.listParts(`${row.id}/${row.file_name}`, uploadId);
    return { parts, partSize: row.part_size, partCount: partCountFor(row.size, row.part_size!) };
  }

  async signParts(actor: Actor, key: string, uploadId: string, partNumbers: number[]) {
    const disk = this.disk();
    const row = await this.own(actor, key, uploadId);
    if (row.state !== 'open') throw Conflict('This upload is already complete.');
    const count = partCountFor(row.size, row.part_size!);
    // Parts past the declared size would let an upload grow beyond its reservation.
    if (partNumbers.some((n) => n > count)) throw ValidationError.field('partNumbers', 'This upload has :count parts.', { count });
    await this.keepAlive(row.id);
    const objectKey = `${row.id}/${row.file_name}`;
    const urls = await Promise.all(
      [...new Set(partNumbers)].map(async (partNumber) => ({
        partNumber,
        url: await disk.signedPart(objectKey, uploadId, partNumber, this.deps.urlExpiresSeconds),
      })),
    );
    return { urls };
  }

  /**
   * Assembles the parts, once the list the client sends matches what the
   * store holds part for part (ListParts) and their sizes add up to the
   * reserved size; the upload stays open (and resumable) when they do not.
   */
  async complete(actor: Actor, key: string, uploadId: string, parts: { PartNumber: number; ETag: string }[]) {
    const disk = this.disk();
    const row = await this.own(actor, key, uploadId);
    if (row.state !== 'open') throw Conflict('This upload is already complete.');
    const objectKey = `${row.id}/${row.file_name}`;
    const stored = await disk.listParts(objectKey, uploadId);
    const count = partCountFor(row.size, row.part_size!);
    if (!sameParts(parts, stored, count))
      throw ValidationError.field('parts', 'The parts do not match what was uploaded. Upload the missing parts and try again.');
    const total = stored.reduce((sum, part) => sum + part.Size, 0);
    if (total !== row.size) {
      throw ValidationError.field('size', 'The upload holds :received bytes; :expected were declared.', { received: total, expected: row.size });
    }
    if (!(await this.deps.repo.transition(row.id, 'open', 'finishing'))) throw Conflict('This upload is already complete.');
    try {
      await disk.completeMultipart(
        objectKey,
        uploadId,
        stored.map(({ PartNumber, ETag }) => ({ PartNumber, ETag })),
      );
    } catch (error) {
      await this.deps.repo.transition(row.id, 'finishing', 'open');
      throw error;
    }
    await this.deps.repo.transition(row.id, 'finishing', 'completed');
    return { key: row.id };
  }

  /** Gives the space back at once; the store drops the parts. */
  async abort(actor: Actor, key: string, uploadId: string): Promise<void> {
    const disk = this.disk();
    const row = await this.own(actor, key, uploadId);
    if (row.state === 'finishing') throw Conflict('This upload is being finished.');
    if (row.state === 'completed') await disk.deletePrefix(row.id);
    else await disk.abortMultipart(`${row.id}/${row.file_name}`, uploadId);
    await this.forget(row.id);
  }

  /**
   * The object of a finished direct upload (a simple PUT, or a completed
   * multipart) becomes a file entry where it lies, in the folder the upload
   * named when it started. Bytes the server refuses (size, type) are removed
   * with the upload; other failures leave it to be finished again. A taken
   * name is answered as the finish asks (onConflict, as for any upload).
   */
  async createEntry(actor: Actor, key: string, onConflict?: string | null) {
    const disk = this.disk();
    const mode = conflictMode(onConflict);
    const row = await this.own(actor, key);
    const from = row.kind === 'simple' ? 'open' : 'completed';
    if (row.state !== from) throw Conflict(row.state === 'finishing' ? 'This upload is being finished.' : 'This upload is not complete yet.');
    const objectKey = `${row.id}/${row.file_name}`;
    const stored = await disk.stat(objectKey);
    if (!stored) throw Conflict('This upload is not complete yet.');
    if (!(await this.deps.repo.transition(row.id, from, 'finishing'))) throw Conflict('This upload is being finished.');
    try {
      if (stored.size !== row.size) {
        await disk.deletePrefix(row.id);
        throw ValidationError.field('size', 'The upload holds :received bytes; :expected were declared.', { received: stored.size, expected: row.size });
      }
      const scope = await this.deps.resolveScope(actor, row.workspace_id);
      const rules = await this.deps.uploads.rules();
      const entry = await this.deps.drive.storeFile(
        actor,
        scope,
        { parentId: row.parent_id, segments: this.deps.uploads.folderSegments(row.relative_path) },
        {
          name: row.name,
          size: row.size,
          storedAt: { diskPrefix: row.id, fileName: row.file_name },
          refuseType: this.deps.uploads.typeRefusal(rules, row.name),
          onConflict: mode,
        },
      );
      await this.forget(row.id);
      return entry;
    } catch (error) {
      // A refused file's bytes are gone (the drive removes them): so is its upload. Otherwise it may be finished again.
      if (await disk.stat(objectKey).catch(() => null)) await this.deps.repo.transition(row.id, 'finishing', from);
      else await this.forget(row.id);
      throw error;
    }
  }

  private async forget(id: string): Promise<void> {
    await this.deps.repo.delete(id);
    await this.deps.quota.release(id);
  }

  /**
   * Housekeeping: uploads abandoned past their deadline (24 h without
   * activity) are aborted in the store, their objects removed and their
   * space released. A finish that committed but did not clean up keeps its
   * bytes: an entry points at them.
   */
  async expireAbandoned(): Promise<number> {
    if (!this.deps.disk) return 0;
    const disk = this.deps.disk;
    let count = 0;
    for (const row of await this.deps.repo.expired()) {
      if (!(await this.deps.committedUnder(row.id))) {
        if (row.kind === 'multipart' && row.s3_upload_id) await disk.abortMultipart(`${row.id}/${row.file_name}`, row.s3_upload_id);
        await disk.deletePrefix(row.id);
      }
      await this.forget(row.id);
      count += 1;
    }
    return count;
  }
}

/** The client's list is exactly parts 1..count, each with the ETag the store has for it. */
function sameParts(given: { PartNumber: number; ETag: string }[], stored: StoredPart[], count: number): boolean {
  if (given.length !== count || stored.length !== count) return false;
  const byNumber = new Map(stored.map((part) => [part.PartNumber, bare(part.ETag)]));
  const sorted = [...given].sort((a, b) => a.PartNumber - b.PartNumber);
  return sorted.every((part, index) => part.PartNumber === index + 1 && byNumber.get(part.PartNumber) === bare(part.ETag));
}
