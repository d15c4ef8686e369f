import { creatorId, userIdOf, type Actor } from '../access/actor.js';
import type { ResolvedScope } from '../access/scope.js';
import type { DriveFacade, StoreTarget, UploadConflict } from '../drive/facade.js';
import type { QuotaService } from '../drive/quota.js';
import type { Readable } from 'node:stream';
import type { FileEntryRow } from '../../db/types.js';
import { LengthRequired, NotFound, PayloadTooLarge, ValidationError } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { SettingValue } from '../settings/defaults.js';
import type { FilePart } from './multipart.js';
import { restrictionProblem, rulesFrom, tooLarge, type UploadRules } from './restrictions.js';
import { UPLOAD_NOT_FOUND, type TusFiles } from './tus-files.js';

/**
 * A whole-file body (WebDAV PUT) of at most this declared length is stored
 * before its quota check rather than after a reservation (storeWhole).
 */
export const SMALL_WHOLE_BYTES = 1024 * 1024;

/** Finder litter that folder uploads never carry over. */
export const isJunkFile = (name: string) => name === '.DS_Store';

export interface UploadsDeps {
  settings: { derived<T>(make: (settings: Record<string, SettingValue>) => T): Promise<T> };
  drive: DriveFacade;
  quota: QuotaService;
  resolveScope(actor: Actor, workspaceId: number | null): Promise<ResolvedScope>;
  tusFiles: TusFiles;
}

/** A tus upload about to be created: what its Upload-Length and Upload-Metadata say. */
export interface TusUploadStart {
  id: string;
  size: number | undefined;
  sizeIsDeferred: boolean;
  metadata: Record<string, string | null | undefined>;
}

/** The upload rules of these settings, frozen: one object is shared by every upload until the settings change. */
const frozenRulesFrom = (settings: Record<string, SettingValue>): UploadRules => {
  const rules = rulesFrom(settings);
  Object.freeze(rules.allowed);
  Object.freeze(rules.blocked);
  return Object.freeze(rules);
};

/**
 * Uploads (spec §7 "Upload calls"): the rules both paths share (restrictions,
 * quota, where a file lands), a plain multipart upload in one call, and the
 * life of a resumable (tus) upload: started, owned by its uploader, finished
 * exactly once.
 */
export class UploadsService {
  constructor(private readonly deps: UploadsDeps) {}

  async rules(): Promise<UploadRules> {
    // Asked for by every upload and PUT: worked out once per change of the settings, and frozen, as it is shared.
    return this.deps.settings.derived(frozenRulesFrom);
  }

  /** Refuses a file by name, declared size and declared type before any byte is stored. */
  async check(file: { name: string; size: number | null; mime: string | null }, rules?: UploadRules): Promise<void> {
    if (isJunkFile(file.name)) throw ValidationError.field('file', '.DS_Store files are skipped.');
    const problem = restrictionProblem(rules ?? (await this.rules()), file);
    if (problem) throw ValidationError.field('file', problem.template, problem.values);
  }

  /** The folders a relative path names, checked: no empty, `.` or `..` segments. */
  folderSegments(relativePath: string | null | undefined): string[] {
    if (!relativePath) return [];
    const segments = relativePath.replace(/\\/g, '/').split('/');
    segments.pop();
    if (segments.some((s) => s === '..' || s === '.' || s.trim() === '')) {
      throw ValidationError.field('relativePath', 'The relative path must be a plain path like "photos/2024/a.jpg".');
    }
    return segments;
  }

  private target(parentId: string | null | undefined, relativePath: string | null | undefined): StoreTarget {
    return { parentId: parentId || null, segments: this.folderSegments(relativePath) };
  }

  /** The declared type was checked before; the sniffed one is checked before the row exists. */
  typeRefusal(rules: UploadRules, name: string) {
    return this.refuseType(rules, name);
  }

  private refuseType(rules: UploadRules, name: string) {
    return (mime: string) => restrictionProblem({ ...rules, maxSize: null }, { name, size: null, mime });
  }

  /**
   * A plain multipart upload: the space is reserved from the declared length
   * (multipart framing makes it a little larger than the file: it errs on the
   * safe side) once the destination is known, and released when stored. A
   * replace is charged the difference, as a WebDAV PUT is (QuotaService.reserve).
   */
  async storePlain(
    actor: Actor,
    workspaceId: number | null,
    request: { contentLength: number; readFile: (fileSizeLimit: number) => Promise<FilePart | undefined> },
    /** Where the file must go whatever the form says (a file drop: the link decides, and no folders are made). */
    place?: { parentId: string },
  ) {
    if (!Number.isFinite(request.contentLength) || request.contentLength <= 0) throw LengthRequired();
    const scope = await this.deps.resolveScope(actor, workspaceId);
    const rules = await this.rules();
    // One byte over the limit reaches our own guard, which refuses with the spec's message.
    const part = await request.readFile(rules.maxSize === null ? Infinity : rules.maxSize + 1);
    if (!part) throw ValidationError.field('file', 'The file field is required.');
    await this.check({ name: part.name, size: null, mime: part.mime });
    const target = place ? { parentId: place.parentId, segments: [] } : this.target(part.fields.parentId, part.fields.relativePath);
    // A file drop never replaces what is there: its visitor may only add.
    const onConflict = place ? 'rename' : conflictMode(part.fields.onConflict);
    await this.deps.drive.refuseTakenName(actor, scope, target, part.name, onConflict);
    const key = `plain-${randomToken(18)}`;
    const charge = await this.deps.drive.payerForUpload(actor, scope, target, part.name, onConflict);
    await this.deps.quota.reserve({ ...charge, uploaderId: creatorId(actor) }, key, request.contentLength, 'plain');
    try {
      const maxSize = rules.maxSize;
      return await this.deps.drive.storeFile(actor, scope, target, {
        name: part.name,
        stream: part.stream,
        ...(maxSize ? { maxBytes: { limit: maxSize, error: () => new ValidationError({ file: [tooLarge(part.name, maxSize)] }) } } : {}),
        refuseType: this.refuseType(rules, part.name),
        onConflict,
      });
    } finally {
      await this.deps.quota.release(key);
    }
  }

  /**
   * A whole file in one request body (WebDAV PUT), new in a folder or
   * replacing an existing file's bytes: the same restrictions, and the same
   * reservation against the payer's quota before a byte is stored. A
   * replacement is charged the difference (its old bytes go once it is
   * stored). A body of unknown length (chunked) reserves what it may still
   * take (the size limit or the space left) and is cut off past it. Answers
   * the file and whether it was created (rather than given new bytes).
   */
  async storeWhole(
    actor: Actor,
    scope: ResolvedScope,
    /** ifTaken 'keep': a file that took the name meanwhile stays as it is (created: false, its entry answered). */
    into:
      | {
          parentId: string | null;
          /** The folder's row, just loaded by the caller (WebDAV's resolve): not read again before the bytes. */
          parent?: FileEntryRow;
          name: string;
          ifTaken?: 'replace' | 'keep';
        }
      | { replace: string; name: string },
    body: { stream: Readable; length: number | null },
  ): Promise<{ entry: FileEntryRow; created: boolean }> {
    const rules = await this.rules();
    await this.check({ name: into.name, size: body.length, mime: null }, rules);
    const charge =
      'replace' in into
        ? await this.deps.drive.payerForReplacing(actor, into.replace)
        : { ...(await this.deps.drive.payerFor(actor, scope, into.parentId, into.parent)), replacing: 0 };
    const freed = charge.replacing;
    if (!('replace' in into) && body.length !== null && body.length <= SMALL_WHOLE_BYTES) {
      // A small new file is stored first and checked against the quota in the transaction that commits it
      // (QuotaService.admit: the same check as a reservation's, under the same lock), so no reservation is written
      // and released around it: one transaction in all. A refusal comes after at most this many bytes were read.
      const written = await this.deps.drive.writeFile(
        actor,
        scope,
        into.parentId,
        {
          name: into.name,
          stream: body.stream,
          size: body.length,
          refuseType: this.refuseType(rules, into.name),
          admit: (trx, bytes) => this.deps.quota.admit(trx, charge, bytes),
        },
        into.ifTaken,
      );
      return { entry: written.entry, created: !written.replaced && !written.kept };
    }
    // Only a body of unknown length needs the space left (its cap); the reservation checks a declared one.
    const left =
      charge.available === null || body.length !== null
        ? null
        : Math.max(0, charge.available - (await this.deps.drive.usage(actor, { ownerId: charge.payerId, workspaceId: null })).used + freed);
    const cap = body.length ?? Math.min(rules.maxSize ?? Infinity, left ?? Infinity);
    const key = `put-${randomToken(18)}`;
    await this.deps.quota.reserve({ ...charge, uploaderId: creatorId(actor) }, key, Number.isFinite(cap) ? cap : 0, 'plain');
    try {
      const limit = body.length === null && Number.isFinite(cap) ? cap : null;
      const file = {
        stream: body.stream,
        ...(body.length !== null ? { size: body.length } : {}),
        ...(limit !== null
          ? {
              maxBytes: {
                limit,
                error: () =>
                  rules.maxSize !== null && limit >= rules.maxSize ? new ValidationError({ file: [tooLarge(into.name, rules.maxSize)] }) : PayloadTooLarge(),
              },
            }
          : {}),
        refuseType: this.refuseType(rules, into.name),
      };
      if ('replace' in into) return { entry: await this.deps.drive.replaceFile(actor, into.replace, file), created: false };
      const written = await this.deps.drive.writeFile(actor, scope, into.parentId, { name: into.name, ...file }, into.ifTaken);
      return { entry: written.entry, created: !written.replaced && !written.kept };
    } finally {
      await this.deps.quota.release(key);
    }
  }

  /** A new tus upload: checked and its declared length reserved before a byte is stored. */
  async startTus(actor: Actor, workspaceId: number | null, upload: TusUploadStart): Promise<void> {
    const name = upload.metadata.name ?? '';
    if (!name) throw ValidationError.field('name', 'The upload needs a file name.');
    if (upload.sizeIsDeferred || upload.size === undefined) throw ValidationError.field('file', 'The upload length must be declared.');
    await this.check({ name, size: upload.size, mime: upload.metadata.mime ?? null });
    const target = this.target(upload.metadata.parentId, upload.metadata.relativePath);
    const scope = await this.deps.resolveScope(actor, workspaceId);
    // Asked before a byte is sent: a taken name is the person's to decide (Replace or Keep both).
    await this.deps.drive.refuseTakenName(actor, scope, target, name, conflictMode(upload.metadata.onConflict));
    const charge = await this.deps.drive.payerForUpload(actor, scope, target, name, conflictMode(upload.metadata.onConflict));
    await this.deps.quota.reserve({ ...charge, uploaderId: userIdOf(actor) }, upload.id, upload.size, 'tus');
  }

  /** Only the uploader reaches an upload in flight; anyone else gets the 404 of an unknown id. */
  async requireOwnUpload(actor: Actor, uploadId: string): Promise<void> {
    if ((await this.deps.quota.uploaderOf(uploadId)) !== userIdOf(actor)) throw NotFound(UPLOAD_NOT_FOUND);
  }

  /** A cancelled (terminated) tus upload gives its space back at once. */
  async cancelled(uploadId: string): Promise<void> {
    await this.deps.quota.release(uploadId);
  }

  /**
   * Turns a finished tus upload into a file entry, exactly once: the upload is
   * claimed atomically first, so a second finish of the same upload gets 404
   * instead of racing the first for the file.
   */
  async finishTus(actor: Actor, workspaceId: number | null, uploadKey: string) {
    const scope = await this.deps.resolveScope(actor, workspaceId);
    if (!(await this.deps.quota.claim(uploadKey, userIdOf(actor)))) throw NotFound(UPLOAD_NOT_FOUND);
    let stored = false;
    try {
      const { upload, file, digest } = await this.deps.tusFiles.completed(uploadKey);
      const meta = upload.metadata ?? {};
      const rules = await this.rules();
      const name = meta.name ?? 'Untitled';
      const entry = await this.deps.drive.storeFile(actor, scope, this.target(meta.parentId, meta.relativePath), {
        name,
        localFile: file,
        // Hashed while the bytes arrived: the finish need not read the file again.
        digest: digest ?? undefined,
        size: upload.size,
        // The upload's own id as the object folder: recovery finds bytes a crash left between adopt and commit.
        diskPrefix: uploadKey,
        refuseType: this.refuseType(rules, name),
        onConflict: conflictMode(meta.onConflict),
      });
      stored = true;
      // The bytes now belong to the drive; this drops the upload's bookkeeping (its .json).
      await this.deps.tusFiles.forget(uploadKey);
      return entry;
    } finally {
      if (stored) await this.deps.quota.release(uploadKey);
      else await this.deps.quota.unclaim(uploadKey);
    }
  }
}

/**
 * An upload's answer to a name already taken: "replace" makes it the file's
 * new content, "ask" refuses (409) so the person can choose, anything else
 * keeps both.
 */
export function conflictMode(value: string | null | undefined): UploadConflict {
  if (value === undefined || value === null || value === '' || value === 'rename') return 'rename';
  if (value === 'replace' || value === 'ask') return value;
  throw ValidationError.field('onConflict', 'onConflict must be "replace", "rename" or "ask".');
}
