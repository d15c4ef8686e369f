import type { Readable } from 'node:stream';
import type { Actor } from '../access/actor.js';
import { requireFolder } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import type { Message } from '../../lib/errors.js';
import type { DriveFiles } from './files.js';
import { ensureFolderPath } from './folder-path.js';
import { presentByIds } from './present.js';
import { trashWorkspaceEntries } from './trash.js';
import { deleteEntriesOwnedBy, payerOf, type Executor } from './repository.js';
import { scopeUnder } from './scope-under.js';
import type { SpaceLimits } from './space-limits.js';
import type { EntryAction } from '../access/actions.js';
import type { FileEntryRow } from '../../db/types.js';
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
    private readonly versions: FileVersions,
  ) {}

  /** A file's whole content (documents), for a caller who may do `action`; larger than `maxBytes` → `tooLarge()`. */
  readWhole(actor: Actor, hash: string, action: EntryAction, maxBytes: number, tooLarge: () => Error): Promise<{ entry: FileEntryRow; bytes: Buffer }> {
    return this.versions.readWhole(actor, hash, action, maxBytes, tooLarge);
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
  async payerFor(actor: Actor, scope: ResolvedScope, parentId: string | null | undefined): Promise<{ payerId: number; available: number | null }> {
    const parent = await requireFolder(this.db, actor, 'files.create', scope, parentId, 'parentId');
    const payerId = payerOf(scopeUnder(parent, scope));
    return { payerId, available: await this.limits.availableTo(actor, payerId) };
  }

  /** Stores a file in its target folder (creating the folders of its path) and answers the presented entry. */
  async storeFile(actor: Actor, scope: ResolvedScope, target: StoreTarget, file: StoreFile & ({ stream: Readable } | { localFile: string })) {
    const folder = await ensureFolderPath(this.db, actor, scope, target.parentId, target.segments);
    const input = { parentId: folder?.hash ?? null, name: file.name, size: file.size, maxBytes: file.maxBytes, refuseType: file.refuseType };
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

  purgeBytes(prefixes: string[]): Promise<void> {
    return this.files.deletePrefixes(prefixes);
  }
}
