import { createHash } from 'node:crypto';
import { noActivity, type ActivityRecorder } from '../activity/recorder.js';
import { createReadStream, promises as fsPromises } from 'node:fs';
import { pipeline as pipelineStreams, Transform, Writable, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileEntryRow } from '../../db/types.js';
import { Conflict, NameTaken, NotFound, ValidationError, type Message } from '../../lib/errors.js';
import { noPause, type Pause } from '../../lib/test-pause.js';
import { randomToken } from '../../lib/tokens.js';
import { ObjectMissingError, type ByteRange, type Disk } from '../../storage/disk.js';
import { creatorId, type Actor } from '../access/actor.js';
import type { EntryAction } from '../access/actions.js';
import { requireEntries, requireEntry, requireFolder } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import { deliveryAction } from '../access/policy.js';
import { extensionOf, inlinePreview, kindOf, OCTET_STREAM, sniffMime, SNIFF_BYTES, type InlinePreview } from './kinds.js';
import { validExactName, validName } from './names.js';
import {
  addToLiveFolderSizes,
  adjustAncestorSizes,
  ancestorIds,
  freeChildName,
  insertEntry,
  liveChildNamed,
  storageKey,
  topmost,
  type Executor,
} from './repository.js';
import { folderLockKey, lockFolders } from '../../db/locks.js';
import { scopeUnder } from './scope-under.js';
import type { ContentChanged } from './content-changed.js';
import { zipLayout, zipStream } from './zip.js';
import { overwriteContent } from './versions.repository.js';
import { GroupCommit } from '../../db/group-commit.js';

export interface CreateFileInput {
  /** Hash of the folder, or '0' / null for the root. */
  parentId?: string | null;
  name: string;
  stream: Readable;
  /** The size the client announced; a stream that ends early or runs long is refused. */
  size?: number;
  createdAt?: string;
  /** Streams of unknown length (multipart) stop with `error()` once they pass `limit` bytes. */
  maxBytes?: { limit: number; error: () => Error };
  /** Upload restrictions on the sniffed type: a message refuses the file before any row exists. */
  refuseType?: (mime: string) => Message | null;
  /**
   * The object folder to store under instead of a new one: a finished tus
   * upload uses its own id, so that start-up recovery can find bytes that were
   * adopted by a finish the process did not live to commit.
   */
  diskPrefix?: string;
  /** With diskPrefix: the object's name when its bytes are already stored there (a direct upload to S3). */
  fileName?: string;
  /**
   * The caller has just checked files.create on the folder (a quota
   * reservation for it does): the check before the bytes is not repeated.
   * The one inside the transaction always runs.
   */
  folderChecked?: boolean;
  /**
   * A live entry already holding the name: 'keep-both' (uploads: the new file
   * takes the first free " (n)" name) or 'replace' (a WebDAV PUT names a
   * resource: a file there gets these bytes, the last writer wins), 'keep'
   * (a WebDAV LOCK's empty file for a free name: what another writer put
   * there meanwhile stays as it is, and these bytes are dropped) or
   * 'refuse' (an upload that asks the person first: 409 NAME_TAKEN, and
   * the queue offers Replace or Keep both).
   */
  nameTaken?: 'keep-both' | 'replace' | 'keep' | 'refuse';
  /** Keep the name as sent, spaces at its ends included (WebDAV); otherwise it is trimmed as typed. */
  exactName?: boolean;
  /**
   * The quota check, inside the transaction that commits the file (a small
   * WebDAV PUT, whose bytes are stored before any reservation: see
   * UploadsService.storeWhole): it throws to refuse, or answers what to do
   * after the commit.
   */
  admit?: (trx: Executor, bytes: number) => Promise<() => Promise<void>>;
}

/** New bytes, stored and measured, about to become a file's content. */
export interface StoredContent {
  diskPrefix: string;
  fileName: string;
  size: number;
  sha256: string;
  mime: string;
  type: string;
}

/** A committed file and whether it replaced the content of one that was there (rather than being created). */
export interface CommittedFile {
  entry: FileEntryRow;
  replaced: boolean;
  /** nameTaken 'keep': the entry is the one already there, untouched. */
  kept?: boolean;
}

/** Counts, hashes and keeps the first bytes of whatever passes through, without holding the rest. */
class Measure extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  private readonly headParts: Buffer[] = [];
  private headBytes = 0;

  constructor(private readonly limit?: { limit: number; error: () => Error }) {
    // A large body's socket reads (64 KiB each) keep coming while the disk writes what came before (LocalDisk.put).
    super({ highWaterMark: 1024 * 1024 });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.absorb(chunk);
    if (this.limit && this.size > this.limit.limit) return callback(this.limit.error());
    callback(null, chunk);
  }

  /** Counts, hashes and keeps the head of bytes that do not stream through (a small body read whole). */
  absorb(chunk: Buffer): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.headBytes < SNIFF_BYTES) {
      const part = Buffer.from(chunk.subarray(0, SNIFF_BYTES - this.headBytes));
      this.headParts.push(part);
      this.headBytes += part.length;
    }
  }

  /** Set when the bytes were hashed on their way in (a tus upload): nothing passes through then. */
  known: { sha256: string; head: Buffer } | null = null;

  get head(): Buffer {
    return this.known?.head ?? Buffer.concat(this.headParts);
  }

  digest(): string {
    return this.known?.sha256 ?? this.hash.digest('hex');
  }
}

/**
 * A body of declared length up to this is read whole and stored with Disk.putBytes: no stream pipeline to the disk,
 * and on the local disk fewer round trips through libuv's thread pool (see LocalDisk.putBytes).
 */
export const IN_MEMORY_BYTES = 64 * 1024;

/**
 * A body's bytes into `key` through `measure`: one of declared length up to IN_MEMORY_BYTES is read whole first
 * (what arrives past the declared length is counted, not kept: the caller's size check refuses it), a larger or
 * undeclared one streams. Answers the bytes when they were read whole.
 */
async function storeBody(disk: Disk, key: string, stream: Readable, size: number | undefined, measure: Measure): Promise<Buffer | null> {
  if (size === undefined || size > IN_MEMORY_BYTES) {
    // pipeline() ties the two streams' errors together from the first byte, before the disk
    // (which creates folders first) attaches its own pipeline; the disk then sees any failure.
    await disk.put(
      key,
      pipelineStreams(stream, measure, () => undefined),
    );
    return null;
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    measure.absorb(chunk);
    if (kept + chunk.length <= size) {
      chunks.push(chunk);
      kept += chunk.length;
    }
  }
  if (measure.size !== size) return null;
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, kept);
  await disk.putBytes(key, bytes);
  return bytes;
}

/** A generated object folder and name: nothing of the user's naming reaches the disk. */
export function newStorageLocation(): { diskPrefix: string; fileName: string } {
  return { diskPrefix: randomToken(12), fileName: randomToken(12) };
}

export const NO_PREVIEW = 'This file has no preview.';

/** A short-lived address the store itself serves an object from, with the disposition and type given. */
export type SignedDownload = (key: string, options: { contentDisposition: string; contentType: string }) => Promise<string>;

/** What a download answers: one file, or several entries (a folder) as a zip stream. */
export type Download = { kind: 'file'; entry: FileEntryRow; key: string } | { kind: 'zip'; name: string; stream: Readable };

/** File bytes: creating files from streams, opening them, and copying them for duplicates. */
export class DriveFiles {
  constructor(
    private readonly db: Executor,
    private readonly disk: Disk,
    private readonly newContent: Pick<ContentChanged, 'queue'>,
    private readonly pause: Pause = noPause,
    /** Set when downloads are redirected to the store (an S3 disk with S3_DOWNLOADS=redirect). */
    readonly signedDownload: SignedDownload | null = null,
    private readonly activity: ActivityRecorder = noActivity,
    /** The transaction that commits a new file: with others that arrive meanwhile, on SQLite (see GroupCommit). */
    private readonly commits: GroupCommit = new GroupCommit(db, false),
  ) {}

  /**
   * Stores a stream as a new file in a folder: bytes to the disk under a
   * generated key while hashing (sha256) and keeping the head for sniffing,
   * then one transaction for the row (name clash → " (1)" suffix, as for
   * moves), its path and the size roll-up. A failure leaves no bytes behind.
   * The thumbnail follows in the background.
   */
  async createFileFromStream(actor: Actor, scope: ResolvedScope, input: CreateFileInput): Promise<FileEntryRow> {
    return (await this.writeFromStream(actor, scope, input)).entry;
  }

  /** createFileFromStream that also says whether the name's file was replaced (nameTaken: 'replace') rather than created. */
  writeFromStream(actor: Actor, scope: ResolvedScope, input: CreateFileInput): Promise<CommittedFile> {
    return this.create(actor, scope, input, (key, measure) => storeBody(this.disk, key, input.stream, input.maxBytes ? undefined : input.size, measure));
  }

  /**
   * Like createFileFromStream for a file already complete on this machine (a
   * finished resumable upload): it is read once for its hash and head (unless
   * they came along, hashed while the upload arrived), then
   * handed to the disk to keep (a rename on the local disk), so its bytes are
   * never written twice. The local file is gone afterwards either way.
   */
  async createFileFromLocalFile(
    actor: Actor,
    scope: ResolvedScope,
    input: Omit<CreateFileInput, 'stream'> & { file: string; digest?: { sha256: string; head: Buffer } },
  ): Promise<FileEntryRow> {
    const { entry } = await this.create(actor, scope, input, async (key, measure) => {
      if (input.digest) {
        // Hashed as the bytes arrived (uploads/hashing-store.ts): only the size is checked, from the disk.
        measure.known = input.digest;
        measure.size = (await fsPromises.stat(input.file)).size;
        await this.disk.adopt(key, input.file);
        return;
      }
      await pipeline(createReadStream(input.file, { highWaterMark: 1024 * 1024 }), measure, new Writable({ write: (_chunk, _encoding, done) => done() }));
      await this.disk.adopt(key, input.file);
    });
    return entry;
  }

  /**
   * Like createFileFromStream for bytes a client stored on the disk itself (a
   * direct upload to S3, at `diskPrefix/fileName`): they are read once for
   * their hash and head and stay where they are.
   */
  async createFileFromStoredObject(
    actor: Actor,
    scope: ResolvedScope,
    input: Omit<CreateFileInput, 'stream' | 'maxBytes'> & { diskPrefix: string; fileName: string },
  ): Promise<FileEntryRow> {
    const { entry } = await this.create(actor, scope, input, async (key, measure) => {
      await pipeline(await this.disk.get(key), measure, new Writable({ write: (_chunk, _encoding, done) => done() }));
    });
    return entry;
  }

  private async create(
    actor: Actor,
    scope: ResolvedScope,
    input: Omit<CreateFileInput, 'stream'>,
    /** Answers the bytes when it had them whole in memory (a small body), for the text job. */
    store: (key: string, measure: Measure) => Promise<Buffer | null | void>,
  ): Promise<CommittedFile> {
    const name = input.exactName ? validExactName(input.name) : validName(input.name);
    if (!input.folderChecked) await requireFolder(this.db, actor, 'files.create', scope, input.parentId, 'parentId');

    const location = input.diskPrefix ? { diskPrefix: input.diskPrefix, fileName: input.fileName ?? randomToken(12) } : newStorageLocation();
    const key = `${location.diskPrefix}/${location.fileName}`;
    const measure = new Measure(input.maxBytes);
    let obsolete: string | null = null;
    const admitted: { afterCommit?: () => Promise<void> } = {};
    // A small body is in hand or nearly: its commit is worth waiting for by the group about to start.
    const announced = input.size !== undefined && input.size <= IN_MEMORY_BYTES && !input.maxBytes ? this.commits.expect() : null;
    try {
      const bytes = (await store(key, measure)) ?? undefined;
      if (input.size !== undefined && input.size !== measure.size) {
        throw ValidationError.field('file', 'The file arrived incomplete: :received of :expected bytes.', { received: measure.size, expected: input.size });
      }
      const extension = extensionOf(name);
      const mime = await sniffMime(measure.head, extension);
      const refusal = input.refuseType?.(mime);
      if (refusal) throw new ValidationError({ file: [refusal] });
      const content: StoredContent = { ...location, size: measure.size, sha256: measure.digest(), mime, type: kindOf(mime, extension) };
      const committed = await this.commits.run(async (trx): Promise<CommittedFile> => {
        // A group that failed as a whole runs this again alone (GroupCommit): nothing of the first run may stay.
        obsolete = null;
        admitted.afterCommit = undefined;
        // Checked again inside the transaction: the folder may have gone while the bytes arrived.
        const parent = await requireFolder(trx, actor, 'files.create', scope, input.parentId, 'parentId');
        const where = scopeUnder(parent, scope);
        const parentId = parent?.id ?? null;
        // Whoever holds the folder's lock decides the name: parallel writers of one name queue here.
        await lockFolders(trx, [folderLockKey(where, parentId)]);
        if (input.nameTaken === 'keep') {
          const existing = await liveChildNamed(trx, where, parentId, name);
          if (existing) {
            obsolete = location.diskPrefix;
            return { entry: existing, replaced: false, kept: true };
          }
        }
        // Checked here too, under the folder's lock: the name may have been taken while the bytes arrived.
        if (input.nameTaken === 'refuse' && (await liveChildNamed(trx, where, parentId, name))) throw NameTaken(name);
        if (input.admit) admitted.afterCommit = await input.admit(trx, content.size);
        if (input.nameTaken === 'replace') {
          const existing = await liveChildNamed(trx, where, parentId, name);
          if (existing?.type === 'folder') throw Conflict('A folder of that name is already there.');
          if (existing) {
            const replaced = await commitReplacement(trx, actor, existing.hash, content);
            obsolete = replaced.obsoletePrefix;
            if (!obsolete) await this.activity.record({ action: 'new-version', entries: [replaced.entry], actor }, trx);
            return { entry: replaced.entry, replaced: true };
          }
        }
        const created = await insertEntry(trx, where, parent, {
          createdBy: creatorId(actor),
          name: input.nameTaken === 'replace' || input.nameTaken === 'keep' ? name : await freeChildName(trx, where, parentId, name, false),
          type: content.type,
          mime,
          extension,
          fileSize: content.size,
          sha256: content.sha256,
          diskPrefix: location.diskPrefix,
          fileName: location.fileName,
          createdAt: input.createdAt,
        });
        // In a group, its folders' sizes are added up and written once for the whole group, before its commit.
        const sizes = this.commits.shared(trx, 'folder-sizes', () => new Map<number, number>(), addToLiveFolderSizes);
        if (sizes) for (const id of ancestorIds(created.path)) sizes.set(id, (sizes.get(id) ?? 0) + content.size);
        else await adjustAncestorSizes(trx, created.path, content.size, null);
        // A visitor's file arriving through a file-drop link is recorded by the link, as a drop into its folder (with the address).
        if (actor.kind !== 'link') await this.activity.record({ action: 'created', entries: [created], actor }, trx);
        await this.pause('entry-commit');
        return { entry: created, replaced: false };
      }, announced ?? undefined);
      if (obsolete) await this.disk.deletePrefix(obsolete).catch(() => undefined);
      // The row is committed: a failure to drop the bytes of versions that gave way leaves them to the store's tidying.
      await admitted.afterCommit?.().catch(() => undefined);
      if (!committed.kept) this.newContent.queue(committed.entry, bytes);
      return committed;
    } catch (error) {
      await this.disk.deletePrefix(location.diskPrefix).catch(() => undefined);
      throw error;
    } finally {
      announced?.done();
    }
  }

  /**
   * Replaces a file's bytes in place (a WebDAV PUT over an existing file): the
   * new bytes go to a new object first, then commitReplacement points the row
   * at them (overwriteContent: the old bytes become a version; identical bytes
   * change nothing). The entry keeps its id, name, shares and stars.
   */
  async replaceFromStream(actor: Actor, hash: string, input: Omit<CreateFileInput, 'name' | 'parentId' | 'diskPrefix' | 'createdAt'>): Promise<FileEntryRow> {
    const current = await requireEntry(this.db, actor, 'files.update', hash);
    if (current.type === 'folder') throw ValidationError.field('file', 'A folder cannot be replaced by a file.');
    const location = newStorageLocation();
    const measure = new Measure(input.maxBytes);
    try {
      const bytes =
        (await storeBody(this.disk, `${location.diskPrefix}/${location.fileName}`, input.stream, input.maxBytes ? undefined : input.size, measure)) ??
        undefined;
      if (input.size !== undefined && input.size !== measure.size) {
        throw ValidationError.field('file', 'The file arrived incomplete: :received of :expected bytes.', { received: measure.size, expected: input.size });
      }
      const extension = extensionOf(current.name);
      const mime = await sniffMime(measure.head, extension);
      const refusal = input.refuseType?.(mime);
      if (refusal) throw new ValidationError({ file: [refusal] });
      const content: StoredContent = { ...location, size: measure.size, sha256: measure.digest(), mime, type: kindOf(mime, extension) };
      const { entry, obsoletePrefix } = await this.db.transaction().execute(async (trx) => {
        const replaced = await commitReplacement(trx, actor, hash, content);
        if (!replaced.obsoletePrefix) await this.activity.record({ action: 'new-version', entries: [replaced.entry], actor }, trx);
        return replaced;
      });
      if (obsoletePrefix) await this.disk.deletePrefix(obsoletePrefix).catch(() => undefined);
      this.newContent.queue(entry, bytes);
      return entry;
    } catch (error) {
      await this.disk.deletePrefix(location.diskPrefix).catch(() => undefined);
      throw error;
    }
  }

  /** A live file the caller may view (a thumbnail) or download, and its storage key. */
  async openable(actor: Actor, hash: string, action: EntryAction = 'files.view'): Promise<{ entry: FileEntryRow; key: string }> {
    const entry = await requireEntry(this.db, actor, action, hash);
    const key = storageKey(entry);
    if (entry.type === 'folder' || !key) throw NotFound('This file has no content to show.');
    return { entry, key };
  }

  /**
   * A file to show inline (the drive's and share links' previews), for the
   * kinds that have a preview; any other kind has none, for every caller
   * (404), so a caller who may view but not download never gets its bytes.
   */
  async preview(actor: Actor, hash: string): Promise<{ entry: FileEntryRow; key: string; mode: InlinePreview }> {
    const { entry, key } = await this.openable(actor, hash, deliveryAction('inline'));
    const mode = inlinePreview(entry.mime ?? OCTET_STREAM, entry.type);
    if (!mode) throw NotFound(NO_PREVIEW);
    return { entry, key, mode };
  }

  /** The bytes (or a range of them); a stored object that went missing is a 404, not a 500. `size`: the row's (see Disk.get). */
  async read(key: string, range?: ByteRange, size?: number): Promise<Readable> {
    try {
      return await this.disk.get(key, range, size);
    } catch (error) {
      if (error instanceof ObjectMissingError) throw NotFound('The content of this file is missing.');
      throw error;
    }
  }

  /**
   * What a download of these entries is: one file as itself, anything else
   * (several entries, or a folder) as a zip streamed while it is sent.
   */
  async download(actor: Actor, hashes: string[], onError: (error: unknown) => void): Promise<Download> {
    const entries = topmost(await requireEntries(this.db, actor, deliveryAction('file'), hashes));
    const only = entries.length === 1 ? entries[0]! : null;
    if (only && only.type !== 'folder') return { kind: 'file', ...(await this.openable(actor, only.hash, deliveryAction('file'))) };
    const items = await zipLayout(this.db, entries);
    const name = only ? `${only.name}.zip` : 'download.zip';
    return { kind: 'zip', name, stream: zipStream(this.disk, items, onError) };
  }

  async copyBytes(from: string, to: string): Promise<void> {
    await this.disk.put(to, await this.disk.get(from));
  }

  async deletePrefixes(prefixes: string[]): Promise<void> {
    for (const prefix of prefixes) await this.disk.deletePrefix(prefix);
  }
}

/**
 * The one place a file's content is replaced, inside the caller's
 * transaction (a WebDAV PUT over a file, or onto a name that a parallel PUT
 * created first): update on the file is checked again, the row points at the
 * new bytes and the size difference rolls up. Answers the storage prefix that
 * no longer holds anything of the file's, to delete after the commit (a
 * versioned replace would keep it and answer null).
 */
export async function commitReplacement(
  trx: Executor,
  actor: Actor,
  hash: string,
  content: StoredContent,
): Promise<{ entry: FileEntryRow; obsoletePrefix: string | null }> {
  const previous = await requireEntry(trx, actor, 'files.update', hash);
  if (previous.type === 'folder') throw ValidationError.field('file', 'A folder cannot be replaced by a file.');
  const outcome = await overwriteContent(trx, previous.id, content, creatorId(actor));
  if (outcome.kind === 'conflict') throw NotFound('This file or folder does not exist.');
  // The old bytes are a version now; identical bytes changed nothing, and the new copy is not needed.
  return { entry: outcome.entry, obsoletePrefix: outcome.kind === 'unchanged' ? content.diskPrefix : null };
}
