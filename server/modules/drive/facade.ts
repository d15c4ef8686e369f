import type { Readable } from 'node:stream';
import type { Actor } from '../access/actor.js';
import { requireFolder } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import type { Message } from '../../lib/errors.js';
import type { DriveFiles } from './files.js';
import { ensureFolderPath } from './folder-path.js';
import { presentByIds } from './present.js';
import { trashWorkspaceEntries } from './trash.js';
import { adjustAncestorSizes, deleteEntriesOwnedBy, findByIds, payerOf, storageKey, subtreeOf, subtreeRows, topmost, type Executor } from './repository.js';
import { NotFound } from '../../lib/errors.js';
import type { FileEntryRow } from '../../db/types.js';
import { scopeUnder } from './scope-under.js';
import type { SpaceLimits } from './space-limits.js';

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
}

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
  ) {}

  /**
   * Who pays for a file stored in this folder, and how much they may store:
   * checked (files.create) before any byte is accepted.
   */
  async payerFor(actor: Actor, scope: ResolvedScope, parentId: string | null | undefined): Promise<{ payerId: number; available: number | null }> {
    const parent = await requireFolder(this.db, actor, 'files.create', scope, parentId, 'parentId');
    const payerId = payerOf(scopeUnder(parent, scope));
    return { payerId, available: await this.limits.availableTo(actor, payerId) };
  }

  /** Stores a file in its target folder (creating the folders of its path) and answers the presented entry. */
  async storeFile(actor: Actor, scope: ResolvedScope, target: StoreTarget, file: StoreFile & ({ stream: Readable } | { localFile: string })) {
    const folder = await ensureFolderPath(this.db, actor, scope, target.parentId, target.segments);
    const input = {
      parentId: folder?.hash ?? null,
      name: file.name,
      size: file.size,
      maxBytes: file.maxBytes,
      refuseType: file.refuseType,
      diskPrefix: file.diskPrefix,
    };
    const entry =
      'stream' in file
        ? await this.files.createFileFromStream(actor, scope, { ...input, stream: file.stream })
        : await this.files.createFileFromLocalFile(actor, scope, { ...input, file: file.localFile });
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
      await adjustAncestorSizes(trx, entry.path, -entry.file_size, entry.deleted_at);
      await trx.deleteFrom('file_entries').where(subtreeOf(entry.path)).execute();
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

  purgeBytes(prefixes: string[]): Promise<void> {
    return this.files.deletePrefixes(prefixes);
  }
}
