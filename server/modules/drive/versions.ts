import { createHash } from 'node:crypto';
import { noActivity, type ActivityRecorder } from '../activity/recorder.js';
import { Readable } from 'node:stream';
import type { FileEntryRow, FileVersionRow } from '../../db/types.js';
import { NotFound, ValidationError } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { Disk } from '../../storage/disk.js';
import { usersByIds } from '../users/accounts.repository.js';
import { displayName } from '../users/presenter.js';
import { creatorId, userIdOf, type Actor } from '../access/actor.js';
import type { EntryAction } from '../access/actions.js';
import { deliveryAction } from '../access/policy.js';
import { requireEntry } from '../access/require.js';
import { newStorageLocation } from './files.js';
import { inlinePreview, OCTET_STREAM, sniffMime, SNIFF_BYTES, extensionOf } from './kinds.js';
import { presentByIds } from './present.js';
import type { QuotaService } from './quota.js';
import { adjustAncestorSizes, findById, payerOf, spaceOf, storageKey, type Executor } from './repository.js';
import type { SpaceLimits } from './space-limits.js';
import type { ContentChanged } from './content-changed.js';
import { deleteVersions, findVersion, overwriteContent, versionPrefixesOf, versionsOf, type NewContent, type Overwrite } from './versions.repository.js';

/** A replaced file whose version moved on under the writer: nothing was written. */
export interface VersionConflict {
  conflict: true;
  current: FileEntryRow;
}

const API = '/api/v1';

/**
 * A file's contents over time. Every overwrite goes through
 * `overwriteContent` (versions.repository.ts), which keeps the old bytes as a
 * version; this class is the rest: document saves (a compare-and-set on the
 * sha256, which is also the ETag), the version list, reading one, restoring
 * one (the current bytes become a version first, so a restore is never lost)
 * and deleting one. Versions are charged to the file's owner; when that pushes
 * them over their space, their oldest versions go (`QuotaService.settle`).
 */
export class FileVersions {
  constructor(
    private readonly db: Executor,
    private readonly disk: Disk,
    private readonly quota: QuotaService,
    private readonly limits: SpaceLimits,
    private readonly newContent: Pick<ContentChanged, 'queue'>,
    private readonly activity: ActivityRecorder = noActivity,
  ) {}

  /** A live file's bytes, for a caller who may do `action`, read whole up to `maxBytes`. */
  async readWhole(actor: Actor, hash: string, action: EntryAction, maxBytes: number, tooLarge: () => Error): Promise<{ entry: FileEntryRow; bytes: Buffer }> {
    const entry = await requireEntry(this.db, actor, action, hash);
    const key = storageKey(entry);
    if (entry.type === 'folder' || !key) throw NotFound('This file has no content to show.');
    return { entry, bytes: await this.readKey(key, Number(entry.file_size), maxBytes, tooLarge) };
  }

  /** An old version's bytes read whole (the editor opens it read-only): view on the file. */
  async readVersionWhole(actor: Actor, hash: string, versionId: number, maxBytes: number, tooLarge: () => Error) {
    const { entry, version, key } = await this.open(actor, hash, versionId, 'files.view');
    return { entry, version, bytes: await this.readKey(key, Number(version.file_size), maxBytes, tooLarge) };
  }

  private async readKey(key: string, size: number, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
    if (size > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let read = 0;
    for await (const chunk of await this.disk.get(key)) {
      read += (chunk as Buffer).length;
      if (read > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  /**
   * Replaces the content of `entry` (a document save) if its version is still
   * `expected`. Growth is reserved against the payer's space as for any replace;
   * the old bytes stay as a version.
   */
  async replace(actor: Actor, entry: FileEntryRow, expected: string, bytes: Buffer, mime: string): Promise<FileEntryRow | VersionConflict> {
    const location = newStorageLocation();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const reservation = `save-${randomToken(18)}`;
    const payerId = payerOf(spaceOf(entry));
    const available = await this.limits.availableTo(actor, payerId);
    await this.quota.reserve({ payerId, uploaderId: userIdOf(actor), available, replacing: Number(entry.file_size) }, reservation, bytes.length, 'plain');
    try {
      await this.disk.put(`${location.diskPrefix}/${location.fileName}`, Readable.from([bytes]));
      const outcome = await this.db.transaction().execute(async (trx) => {
        const result = await overwriteContent(trx, entry.id, { ...location, size: bytes.length, sha256, mime }, creatorId(actor), expected);
        if (result.kind === 'replaced') await this.activity.record({ action: 'new-version', entries: [result.entry], actor }, trx);
        return result;
      });
      if (outcome.kind !== 'replaced') await this.disk.deletePrefix(location.diskPrefix).catch(() => undefined);
      if (outcome.kind === 'conflict') {
        if (!outcome.entry || outcome.entry.deleted_at) throw NotFound('This file or folder does not exist.');
        return { conflict: true, current: outcome.entry };
      }
      if (outcome.kind === 'replaced') {
        await this.quota.settle(payerId, available);
        this.newContent.queue(outcome.entry);
      }
      return outcome.entry;
    } catch (error) {
      await this.disk.deletePrefix(location.diskPrefix).catch(() => undefined);
      throw error;
    } finally {
      await this.quota.release(reservation);
    }
  }

  /** After any other overwrite path: the payer's oldest versions go while they are over their space. */
  async settle(actor: Actor, entry: FileEntryRow): Promise<void> {
    const payerId = payerOf(spaceOf(entry));
    await this.quota.settle(payerId, await this.limits.availableTo(actor, payerId));
  }

  /** A file's versions, newest first, for a caller who may view it. */
  async list(actor: Actor, hash: string) {
    const entry = await this.liveFile(actor, 'files.view', hash);
    const versions = await versionsOf(this.db, entry.id);
    const authors = new Map((await usersByIds(this.db, [...new Set(versions.flatMap((v) => (v.created_by ? [v.created_by] : [])))])).map((u) => [u.id, u]));
    return versions.map((version) => {
      const author = version.created_by ? authors.get(version.created_by) : undefined;
      return presentVersion(entry, version, author ? { id: author.id, name: displayName(author) } : null);
    });
  }

  /** A version's row and storage key, for a caller who may do `action` on its file. */
  async open(actor: Actor, hash: string, versionId: number, action: EntryAction): Promise<{ entry: FileEntryRow; version: FileVersionRow; key: string }> {
    const entry = await this.liveFile(actor, action, hash);
    const version = await findVersion(this.db, entry.id, versionId);
    if (!version) throw NotFound('This version does not exist.');
    return { entry, version, key: `${version.disk_prefix}/${version.file_name}` };
  }

  /** Shown inline: only for kinds that have a preview (as for files: a preview is never a download in disguise). */
  async preview(actor: Actor, hash: string, versionId: number) {
    const opened = await this.open(actor, hash, versionId, deliveryAction('inline'));
    const mode = inlinePreview(opened.version.mime ?? OCTET_STREAM, opened.entry.type);
    if (!mode) throw NotFound('This file has no preview.');
    return { ...opened, mode };
  }

  /**
   * Makes a version the file's content again: the current bytes become a
   * version first (overwriteContent), and the restored version's bytes are
   * the file's from now on (its row goes; its bytes are not copied).
   */
  async restore(actor: Actor, hash: string, versionId: number) {
    const entry = await this.liveFile(actor, 'files.update', hash);
    const { dropped, row } = await this.db.transaction().execute(async (trx) => {
      const version = await findVersion(trx, entry.id, versionId);
      if (!version) throw NotFound('This version does not exist.');
      const content: NewContent = {
        diskPrefix: version.disk_prefix,
        fileName: version.file_name,
        size: Number(version.file_size),
        sha256: version.sha256 ?? '',
        mime: version.mime ?? OCTET_STREAM,
      };
      const outcome: Overwrite = await overwriteContent(trx, entry.id, content, creatorId(actor));
      if (outcome.kind === 'conflict') throw NotFound('This file or folder does not exist.');
      await trx.deleteFrom('file_versions').where('id', '=', version.id).execute();
      if (outcome.kind === 'replaced')
        await this.activity.record({ action: 'new-version', entries: [outcome.entry], actor, details: { restoredFrom: version.created_at } }, trx);
      // The same bytes as the current ones: the version was a duplicate, its copy goes.
      return { dropped: outcome.kind === 'unchanged' ? [version.disk_prefix] : [], row: outcome.entry };
    });
    for (const prefix of dropped) await this.disk.deletePrefix(prefix).catch(() => undefined);
    this.newContent.queue(row);
    return (await presentByIds(this.db, actor, [row.id]))[0]!;
  }

  /** Deletes one version and its bytes (update on the file: owners and editors). */
  async delete(actor: Actor, hash: string, versionId: number): Promise<void> {
    const entry = await this.liveFile(actor, 'files.update', hash);
    const prefixes = await this.db.transaction().execute(async (trx) => {
      if (!(await findVersion(trx, entry.id, versionId))) throw NotFound('This version does not exist.');
      return deleteVersions(trx, [versionId]);
    });
    for (const prefix of prefixes) await this.disk.deletePrefix(prefix);
  }

  /**
   * A WebDAV MOVE of one file onto another (how editors and sync tools save:
   * write a temporary file, then move it over the real one): the destination
   * keeps its id, shares and history, its content becomes the source's bytes
   * (the old ones a version), and the source row goes without its bytes.
   */
  async moveOnto(actor: Actor, sourceHash: string, destinationHash: string): Promise<FileEntryRow> {
    const source = await this.liveFile(actor, 'files.update', sourceHash);
    const destination = await this.liveFile(actor, 'files.update', destinationHash);
    if (source.owner_id !== destination.owner_id || (source.workspace_id ?? null) !== (destination.workspace_id ?? null))
      throw ValidationError.field('destinationId', 'Items can only be moved within the same workspace. Copy them instead.');
    const key = storageKey(source)!;
    const head: Buffer[] = [];
    if (Number(source.file_size) > 0)
      for await (const chunk of await this.disk.get(key, { start: 0, end: Math.min(SNIFF_BYTES, Number(source.file_size)) - 1 })) head.push(chunk as Buffer);
    const mime = await sniffMime(Buffer.concat(head), extensionOf(destination.name));
    const { row, dropped } = await this.db.transaction().execute(async (trx) => {
      const current = await findById(trx, source.id);
      if (!current || current.deleted_at || current.disk_prefix !== source.disk_prefix) throw NotFound('This file or folder does not exist.');
      const outcome = await overwriteContent(
        trx,
        destination.id,
        { diskPrefix: source.disk_prefix!, fileName: source.file_name!, size: Number(source.file_size), sha256: source.sha256 ?? '', mime },
        creatorId(actor),
      );
      if (outcome.kind === 'conflict') throw NotFound('This file or folder does not exist.');
      // The source's own history and, when nothing changed, its bytes go with it.
      const dropped = await versionPrefixesOf(trx, [source.id]);
      if (outcome.kind === 'unchanged') dropped.push(source.disk_prefix!);
      await trx.deleteFrom('file_entries').where('id', '=', source.id).execute();
      await adjustAncestorSizes(trx, source.path, -Number(source.file_size), null);
      if (outcome.kind === 'replaced') await this.activity.record({ action: 'new-version', entries: [outcome.entry], actor }, trx);
      return { row: outcome.entry, dropped };
    });
    for (const prefix of dropped) await this.disk.deletePrefix(prefix).catch(() => undefined);
    this.newContent.queue(row);
    await this.settle(actor, row);
    return row;
  }

  private async liveFile(actor: Actor, action: EntryAction, hash: string): Promise<FileEntryRow> {
    const entry = await requireEntry(this.db, actor, action, hash);
    if (entry.type === 'folder') throw NotFound('Folders have no versions.');
    return entry;
  }
}

export function presentVersion(entry: FileEntryRow, version: FileVersionRow, author: { id: number; name: string } | null) {
  const base = `${API}/file-entries/${entry.hash}/versions/${version.id}`;
  return {
    id: version.id,
    file_size: Number(version.file_size),
    mime: version.mime,
    sha256: version.sha256,
    created_at: version.created_at,
    replaced_at: version.replaced_at,
    created_by: author,
    preview_url: inlinePreview(version.mime ?? OCTET_STREAM, entry.type) ? `${base}/preview` : null,
    download_url: `${base}/download`,
  };
}

export type PresentedVersion = ReturnType<typeof presentVersion>;

export const isConflict = (value: FileEntryRow | VersionConflict): value is VersionConflict => 'conflict' in value;
