import type { RequestContext } from '../../augment.js';
import type { FileEntryRow } from '../../db/types.js';
import { Forbidden, NotFound, ValidationError } from '../../lib/errors.js';
import { can } from '../permissions/policy.js';
import type { UserWithAccess } from '../users/repository.js';
import { findByHash, findByHashes, type Executor, type Scope } from './repository.js';

/**
 * Who may see and change which entries, in one place. Until sharing and
 * workspace membership arrive an entry is visible to its owner only; anyone
 * else gets the same 404 as for an id that does not exist, so ids reveal nothing.
 */
export const ENTRY_NOT_FOUND = 'This file or folder does not exist.';
export const ROOT_HASH = '0';

/** Permissions a folder listing reports (spec §3 Folder), as the user holds them. */
const FOLDER_PERMISSIONS = ['files.view', 'files.create', 'files.update', 'files.delete', 'files.download'];

export type TrashFilter = 'live' | 'trashed' | 'any';

export function scopeFor(user: UserWithAccess, ctx: Pick<RequestContext, 'workspaceId'> | null): Scope {
  return { ownerId: user.id, workspaceId: ctx?.workspaceId || null };
}

export const canSee = (user: UserWithAccess, entry: FileEntryRow): boolean => entry.owner_id === user.id;

/** Throws 403 unless the user's role grants `permission` (spec §6). */
export function authorize(user: UserWithAccess, permission: string): void {
  if (!can(user, permission)) throw Forbidden();
}

function matchesTrash(entry: FileEntryRow, filter: TrashFilter): boolean {
  if (filter === 'any') return true;
  return filter === 'live' ? entry.deleted_at === null : entry.deleted_at !== null;
}

export async function visibleEntry(db: Executor, user: UserWithAccess, hash: string, trash: TrashFilter = 'live'): Promise<FileEntryRow> {
  const entry = await findByHash(db, hash);
  if (!entry || !canSee(user, entry) || !matchesTrash(entry, trash)) throw NotFound(ENTRY_NOT_FOUND);
  return entry;
}

/** All of them or a 404: a list naming one invisible entry is refused whole. */
export async function visibleEntries(db: Executor, user: UserWithAccess, hashes: string[], trash: TrashFilter = 'live'): Promise<FileEntryRow[]> {
  const unique = [...new Set(hashes)];
  const entries = await findByHashes(db, unique);
  if (entries.length !== unique.length || entries.some((e) => !canSee(user, e) || !matchesTrash(e, trash))) {
    throw NotFound('One or more of these files or folders do not exist.');
  }
  const order = new Map(unique.map((hash, index) => [hash, index]));
  return entries.sort((a, b) => order.get(a.hash)! - order.get(b.hash)!);
}

/** A live folder of the user, or null for the root ('0', empty or absent). */
export async function resolveFolder(db: Executor, user: UserWithAccess, folderId: string | null | undefined, field = 'folderId'): Promise<FileEntryRow | null> {
  if (!folderId || folderId === ROOT_HASH) return null;
  const folder = await visibleEntry(db, user, folderId);
  if (folder.type !== 'folder') throw ValidationError.field(field, 'The selected destination is not a folder.');
  return folder;
}

export function folderPermissions(user: UserWithAccess, options: { sqlView?: boolean } = {}): string[] {
  const held = FOLDER_PERMISSIONS.filter((p) => can(user, p));
  // The SQL view always allows upload (spec §2/§6).
  if (options.sqlView && !held.includes('files.update')) held.push('files.update');
  return held;
}
