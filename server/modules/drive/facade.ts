import type { Readable } from 'node:stream';
import type { Actor } from '../access/actor.js';
import { requireFolder } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import type { Message } from '../../lib/errors.js';
import type { FileEntryRow } from '../../db/types.js';
import type { EntryAction } from '../access/actions.js';
import { requireEntry, requireRows } from '../access/require.js';
import { sharedWithFilter } from '../access/grants.repository.js';
import { deliveryAction } from '../access/policy.js';
import type { CommittedFile, CreateFileInput, DriveFiles } from './files.js';
import type { DriveService } from './service.js';
import type { TrashService } from './trash.js';
import { ensureFolderPath } from './folder-path.js';
import { presentByIds } from './present.js';
import { trashWorkspaceEntries } from './trash.js';
import {
  adjustAncestorSizes,
  bytesCharged,
  deleteEntriesOwnedBy,
  deleteSubtree,
  findByIds,
  liveChildNamed,
  liveChildren,
  liveChildrenListed,
  liveEntriesWhere,
  payerOf,
  spaceOf,
  storageKey,
  subtreeRows,
  topmost,
  type Executor,
  type ListedRow,
  type Scope,
} from './repository.js';
import { HttpError, NameTaken, NotFound } from '../../lib/errors.js';
import { validName } from './names.js';
import { scopeUnder } from './scope-under.js';
import { versionPrefixesUnder } from './versions.repository.js';
import type { SpaceLimits } from './space-limits.js';
import type { FileVersions, VersionConflict } from './versions.js';

export interface StoreTarget {
  /** Folder hash or '0'/null for the root. */
  parentId: string | null | undefined;
  /** Folders to create (or reuse) below parentId: folder uploads keep their structure. */
  segments: string[];
}

export interface StoreFile {
  name: string;
  size?: number;
  maxBytes?: { limit: number; error: () => Error };
  refuseType?: (mime: string) => Message | null;
  /** See CreateFileInput.diskPrefix. */
  diskPrefix?: string;
  /**
   * A live file already holding the name: 'rename' (the default) keeps both,
   * 'replace' gives it these bytes (update on it; its old bytes become a
   * version) — "Replace" beside "Keep both" when an upload's name is taken;
   * 'ask' refuses (409 NAME_TAKEN) so the person can choose.
   */
  onConflict?: UploadConflict;
}

/** What an upload does when its name is taken in its folder. */
export type UploadConflict = 'rename' | 'replace' | 'ask';

const NAME_TAKEN_ANSWER = { rename: 'keep-both', replace: 'replace', ask: 'refuse' } as const;

/**
 * What other modules may ask of the drive — uploads store files, account
 * deletion removes a user's entries — without reaching into its tables,
 * repository or access internals.
 */
export class DriveFacade {
  constructor(
    private readonly db: Executor,
    private readonly files: DriveFiles,
    private readonly limits: SpaceLimits,
    private readonly entries: DriveService,
    private readonly trash: TrashService,
    private readonly versions: FileVersions,
  ) {}

  // Path-shaped access (WebDAV): lookups by name, then the access policy on what was found.

  /** The live entry of that name in a folder (null: the space's root); whether the caller may reach it is `entry`'s to say. */
  findChild(space: Scope, parentId: number | null, name: string): Promise<FileEntryRow | undefined> {
    return liveChildNamed(this.db, space, parentId, name);
  }

  /** A live entry the caller may act on (the access policy's 404 / 403 otherwise). */
  entry(actor: Actor, action: EntryAction, hash: string): Promise<FileEntryRow> {
    return requireEntry(this.db, actor, action, hash);
  }

  /** An entry just loaded (found by name, say) the caller may act on: the policy's decision, without loading it again. */
  async permitted(actor: Actor, action: EntryAction, entry: FileEntryRow): Promise<FileEntryRow> {
    await requireRows(this.db, actor, action, [entry]);
    return entry;
  }

  /** The live entries in a folder (null: the scope's root) the caller may view. */
  async children(actor: Actor, scope: ResolvedScope, folderHash: string | null): Promise<FileEntryRow[]> {
    const folder = await requireFolder(this.db, actor, 'files.view', scope, folderHash);
    return liveChildren(this.db, folder ? spaceOf(folder) : scope, folder?.id ?? null);
  }

  /**
   * `children` of a folder just loaded and found by name (WebDAV resolved its path; null: the scope's root): the
   * policy decides on that row without loading it again, and each child is read with the listed columns only.
   */
  async childrenOfLoaded(actor: Actor, scope: ResolvedScope, folder: FileEntryRow | null): Promise<ListedRow[]> {
    if (folder) await requireRows(this.db, actor, 'files.view', [folder]);
    else await requireFolder(this.db, actor, 'files.view', scope, null);
    if (folder && folder.type !== 'folder') return [];
    return liveChildrenListed(this.db, folder ? spaceOf(folder) : scope, folder?.id ?? null);
  }

  /** Live entries shared directly with the caller by others ("Shared with me"). */
  sharedWithMe(actor: Actor): Promise<FileEntryRow[]> {
    return liveEntriesWhere(this.db, sharedWithFilter(actor));
  }

  /** What the payer of a space has stored (trash included) and may store in all (null: unlimited). */
  async usage(actor: Actor, space: Scope): Promise<{ used: number; available: number | null }> {
    const payerId = payerOf(space);
    return { used: await bytesCharged(this.db, payerId), available: await this.limits.availableTo(actor, payerId) };
  }

  /**
   * Who pays for a file's new bytes when it is replaced (update on the file), how much they may store,
   * and the size being replaced (`replacing`: see QuotaService.reserve).
   */
  async payerForReplacing(actor: Actor, hash: string): Promise<{ payerId: number; available: number | null; replacing: number }> {
    const entry = await requireEntry(this.db, actor, 'files.update', hash);
    const payerId = payerOf(spaceOf(entry));
    return { payerId, available: await this.limits.availableTo(actor, payerId), replacing: Number(entry.file_size) };
  }

  /**
   * A file written to a name (a WebDAV PUT to a path that was free when the
   * request came): created, or — when a parallel writer created it first —
   * that file gets these bytes instead (the last writer wins); one file either way.
   * Called after payerFor for the folder: its access check is not repeated before the bytes.
   */
  async writeFile(
    actor: Actor,
    scope: ResolvedScope,
    parentHash: string | null,
    file: StoreFile & { stream: Readable; admit?: CreateFileInput['admit'] },
    nameTaken: 'replace' | 'keep' = 'replace',
  ): Promise<CommittedFile> {
    const written = await this.files.writeFromStream(actor, scope, {
      parentId: parentHash,
      name: file.name,
      stream: file.stream,
      size: file.size,
      maxBytes: file.maxBytes,
      refuseType: file.refuseType,
      admit: file.admit,
      nameTaken,
      exactName: true,
      // Only after payerFor, which checks files.create on this folder (uploads' storeWhole).
      folderChecked: true,
    });
    if (written.replaced) await this.versions.settle(actor, written.entry);
    return written;
  }

  async replaceFile(actor: Actor, hash: string, file: Omit<StoreFile, 'name' | 'diskPrefix'> & { stream: Readable }): Promise<FileEntryRow> {
    const entry = await this.files.replaceFromStream(actor, hash, {
      stream: file.stream,
      size: file.size,
      maxBytes: file.maxBytes,
      refuseType: file.refuseType,
    });
    await this.versions.settle(actor, entry);
    return entry;
  }

  /** A file moved onto another file (WebDAV MOVE with Overwrite): the destination's content is replaced, its old bytes a version. */
  moveOnto(actor: Actor, sourceHash: string, destinationHash: string): Promise<FileEntryRow> {
    return this.versions.moveOnto(actor, sourceHash, destinationHash);
  }

  /** The bytes handed over (a WebDAV GET): a download. */
  read(actor: Actor, hash: string, range?: { start: number; end: number }) {
    return this.files
      .openable(actor, hash, deliveryAction('file'))
      .then(async ({ entry, key }) => ({ entry, stream: await this.files.read(key, range, Number(entry.file_size)) }));
  }

  /** `read` of an entry just loaded (a WebDAV GET resolved its path): the policy decides on the row, not loaded again. */
  async readLoaded(actor: Actor, entry: FileEntryRow, range?: { start: number; end: number }) {
    await requireRows(this.db, actor, deliveryAction('file'), [entry]);
    const key = storageKey(entry);
    if (entry.type === 'folder' || !key) throw NotFound('This file has no content to show.');
    return { entry, stream: await this.files.read(key, range, Number(entry.file_size)) };
  }

  createFolder(actor: Actor, scope: ResolvedScope, parentHash: string | null, name: string) {
    return this.entries.createFolder(actor, scope, { name, parentId: parentHash });
  }

  moveTo(actor: Actor, scope: ResolvedScope, hash: string, destinationHash: string | null, name: string): Promise<void> {
    return this.entries.moveTo(actor, scope, hash, destinationHash, name);
  }

  /** A copy under the given name (a WebDAV COPY); answers each copied entry's id beside its original's. */
  async copyTo(actor: Actor, scope: ResolvedScope, hash: string, destinationHash: string | null, name: string): Promise<[from: number, to: number][]> {
    return (await this.entries.copyEntries(actor, scope, [hash], destinationHash ?? '0', name)).pairs;
  }

  async moveToTrash(actor: Actor, scope: ResolvedScope, hash: string): Promise<void> {
    await this.trash.delete(actor, scope, { entryIds: [hash], deleteForever: false, emptyTrash: false });
  }

  /** A file's whole content (documents), for a caller who may do `action`; larger than `maxBytes` → `tooLarge()`. */
  readWhole(actor: Actor, hash: string, action: EntryAction, maxBytes: number, tooLarge: () => Error): Promise<{ entry: FileEntryRow; bytes: Buffer }> {
    return this.versions.readWhole(actor, hash, action, maxBytes, tooLarge);
  }

  /** An earlier version's bytes read whole (files.view on the file; an unknown version is a 404). */
  readVersionWhole(actor: Actor, hash: string, versionId: number, maxBytes: number, tooLarge: () => Error) {
    return this.versions.readVersionWhole(actor, hash, versionId, maxBytes, tooLarge);
  }

  /** New content for a file whose version (sha256) is still `expected`; otherwise nothing is written (see versions.ts). */
  replaceContent(actor: Actor, entry: FileEntryRow, expected: string, bytes: Buffer, mime: string): Promise<FileEntryRow | VersionConflict> {
    return this.versions.replace(actor, entry, expected, bytes, mime);
  }

  /** Entries as the API shows them, with the caller's permissions. */
  async present(actor: Actor, ids: number[]) {
    return presentByIds(this.db, actor, ids);
  }

  /**
   * Who pays for a file stored in this folder, and how much they may store:
   * checked (files.create) before any byte is accepted.
   */
  async payerFor(
    actor: Actor,
    scope: ResolvedScope,
    parentId: string | null | undefined,
    /** The folder's row when the caller has just loaded it (WebDAV's resolve, by name): decided on without a second read. */
    loaded?: FileEntryRow,
  ): Promise<{ payerId: number; available: number | null }> {
    const parent =
      loaded && loaded.hash === parentId && loaded.type === 'folder' && loaded.deleted_at === null
        ? (await requireRows(this.db, actor, 'files.create', [loaded]), loaded)
        : await requireFolder(this.db, actor, 'files.create', scope, parentId, 'parentId');
    const payerId = payerOf(scopeUnder(parent, scope));
    return { payerId, available: await this.limits.availableTo(actor, payerId) };
  }

  /**
   * Who pays for an upload into `target` (files.create on its folder) and how much they may store; for an
   * upload answered "Replace" whose name holds a file already, that file's size too (`replacing`), which
   * the reservation does not charge again, as for a WebDAV PUT over a file (QuotaService.reserve). Only a
   * file going straight into an existing folder can be found early; one below folders the upload makes
   * is charged whole.
   */
  async payerForUpload(
    actor: Actor,
    scope: ResolvedScope,
    target: StoreTarget,
    name: string,
    onConflict: UploadConflict,
  ): Promise<{ payerId: number; available: number | null; replacing: number }> {
    const parent = await requireFolder(this.db, actor, 'files.create', scope, target.parentId, 'parentId');
    const space = scopeUnder(parent, scope);
    const payerId = payerOf(space);
    const available = await this.limits.availableTo(actor, payerId);
    if (onConflict !== 'replace' || target.segments.length) return { payerId, available, replacing: 0 };
    const taken = await liveChildNamed(this.db, space, parent?.id ?? null, validName(name));
    return { payerId, available, replacing: taken && taken.type !== 'folder' ? Number(taken.file_size) : 0 };
  }

  /**
   * An upload that asks before taking a name (onConflict 'ask') is refused
   * before a byte is sent when the name is taken already: 409 NAME_TAKEN.
   * Only a file going straight into an existing folder can be checked early;
   * one below folders the upload makes is checked when it is stored.
   */
  async refuseTakenName(actor: Actor, scope: ResolvedScope, target: StoreTarget, name: string, onConflict: UploadConflict): Promise<void> {
    if (onConflict !== 'ask' || target.segments.length) return;
    const parent = await requireFolder(this.db, actor, 'files.create', scope, target.parentId, 'parentId');
    const valid = validName(name);
    if (await liveChildNamed(this.db, scopeUnder(parent, scope), parent?.id ?? null, valid)) throw NameTaken(valid);
  }

  /** Stores a file in its target folder (creating the folders of its path) and answers the presented entry. */
  async storeFile(
    actor: Actor,
    scope: ResolvedScope,
    target: StoreTarget,
    file: StoreFile &
      ({ stream: Readable } | { localFile: string; digest?: { sha256: string; head: Buffer } } | { storedAt: { diskPrefix: string; fileName: string } }),
  ) {
    const folder = await ensureFolderPath(this.db, actor, scope, target.parentId, target.segments);
    const input = {
      parentId: folder?.hash ?? null,
      name: file.name,
      size: file.size,
      maxBytes: file.maxBytes,
      refuseType: file.refuseType,
      diskPrefix: file.diskPrefix,
      nameTaken: NAME_TAKEN_ANSWER[file.onConflict ?? 'rename'],
    };
    const entry =
      'stream' in file
        ? await this.files.createFileFromStream(actor, scope, { ...input, stream: file.stream })
        : 'localFile' in file
          ? await this.files.createFileFromLocalFile(actor, scope, { ...input, file: file.localFile, digest: file.digest })
          : await this.files.createFileFromStoredObject(actor, scope, { ...input, ...file.storedAt });
    if (file.onConflict === 'replace') await this.versions.settle(actor, entry);
    return (await presentByIds(this.db, actor, [entry.id]))[0]!;
  }

  /**
   * For account deletion, inside its transaction: removes the entries the
   * user owns (personal space and owned workspaces) and answers the storage
   * prefixes to purge after the commit.
   */
  deleteEntriesOf(trx: Executor, userId: number): Promise<string[]> {
    return deleteEntriesOwnedBy(trx, userId);
  }

  /** For workspace deletion, inside its transaction: the workspace's entries go to its owner's trash. */
  trashWorkspace(trx: Executor, workspaceId: number): Promise<number> {
    return trashWorkspaceEntries(trx, workspaceId);
  }

  /**
   * For the admin area, inside its transaction: removes entries and all below
   * them forever (no grant is asked: the admin permission was the check) and
   * answers their names and the storage prefixes to purge after the commit.
   */
  async deleteForeverByIds(trx: Executor, ids: number[]): Promise<{ entries: FileEntryRow[]; prefixes: string[] }> {
    const entries = topmost(await findByIds(trx, ids));
    const prefixes: string[] = [];
    for (const entry of entries) {
      for (const row of await subtreeRows(trx, entry.path)) if (row.disk_prefix) prefixes.push(row.disk_prefix);
      prefixes.push(...(await versionPrefixesUnder(trx, entry.path)));
      await adjustAncestorSizes(trx, entry.path, -entry.file_size, entry.deleted_at);
      await deleteSubtree(trx, entry.path);
    }
    return { entries, prefixes };
  }

  /** For the admin area's support download: a file's row and storage key, no grant asked. */
  async fileForSupport(id: number): Promise<{ entry: FileEntryRow; key: string }> {
    const [entry] = await findByIds(this.db, [id]);
    const key = entry ? storageKey(entry) : null;
    if (!entry || entry.type === 'folder' || !key) throw NotFound('This file has no content to show.');
    return { entry, key };
  }

  /**
   * For content search's background job (a system read: no caller, the job
   * was queued by a write that was allowed): those of `ids` that are files
   * with stored bytes, as they are now (gone ones and folders are left out).
   */
  async filesForIndex(ids: number[]): Promise<FileEntryRow[]> {
    return (await findByIds(this.db, ids)).filter((entry) => entry.type !== 'folder' && storageKey(entry));
  }

  /**
   * Up to `maxBytes` of a file's content (a row from filesForIndex), and
   * whether that is all of it; null when its stored object is missing.
   */
  async contentForIndex(entry: FileEntryRow, maxBytes: number): Promise<{ bytes: Buffer; complete: boolean } | null> {
    const key = storageKey(entry);
    const size = Number(entry.file_size);
    if (!key) return null;
    if (size === 0 || maxBytes <= 0) return { bytes: Buffer.alloc(0), complete: size === 0 };
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.files.read(key, { start: 0, end: Math.min(size, maxBytes) - 1 })) chunks.push(chunk as Buffer);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
    return { bytes: Buffer.concat(chunks), complete: size <= maxBytes };
  }

  purgeBytes(prefixes: string[]): Promise<void> {
    return this.files.deletePrefixes(prefixes);
  }
}
