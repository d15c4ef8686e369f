import type { FileEntryRow } from '../../db/types.js';
import { Forbidden, NotFound, ValidationError } from '../../lib/errors.js';
import { findByHashes, type Executor, type Scope } from '../drive/repository.js';
import type { EntryAction } from './actions.js';
import type { Actor } from './actor.js';
import { loadGrants, loadRootGrant } from './grants.repository.js';
import { decide } from './policy.js';
import type { ResolvedScope } from './scope.js';

export const ENTRY_NOT_FOUND = 'This file or folder does not exist.';
export const ENTRIES_NOT_FOUND = 'One or more of these files or folders do not exist.';
export const ROOT_HASH = '0';

/** Live entries only (the default), trashed ones only, or either. */
export type TrashFilter = 'live' | 'trashed' | 'any';

function matchesTrash(entry: FileEntryRow, filter: TrashFilter): boolean {
  if (filter === 'any') return true;
  return filter === 'live' ? entry.deleted_at === null : entry.deleted_at !== null;
}

/**
 * The one entry point that decides access to entries: the rows, in the order
 * asked, or an error for the whole batch — 404 when any entry is missing, in
 * the wrong trash state or reached by no grant at all (ids reveal nothing),
 * 403 when every entry is reachable but a grant lacks the action.
 */
export async function requireEntries(
  db: Executor,
  actor: Actor,
  action: EntryAction,
  hashes: string[],
  options: { trash?: TrashFilter; notFound?: string } = {},
): Promise<FileEntryRow[]> {
  const unique = [...new Set(hashes)];
  const rows = await findByHashes(db, unique);
  const notFound = options.notFound ?? (unique.length === 1 ? ENTRY_NOT_FOUND : ENTRIES_NOT_FOUND);
  if (rows.length !== unique.length || rows.some((row) => !matchesTrash(row, options.trash ?? 'live'))) throw NotFound(notFound);
  const grants = await loadGrants(db, actor, rows);
  const decisions = rows.map((row) => decide(actor, action, grants.get(row.id)));
  if (decisions.includes('not-found')) throw NotFound(notFound);
  if (decisions.includes('forbidden')) throw Forbidden();
  const order = new Map(unique.map((hash, index) => [hash, index]));
  return rows.sort((a, b) => order.get(a.hash)! - order.get(b.hash)!);
}

export async function requireEntry(
  db: Executor,
  actor: Actor,
  action: EntryAction,
  hash: string,
  options: { trash?: TrashFilter } = {},
): Promise<FileEntryRow> {
  return (await requireEntries(db, actor, action, [hash], options))[0]!;
}

/**
 * A live folder the actor may act on, or null for the scope's root ('0',
 * empty or absent), which is checked against the scope's root grant.
 */
export async function requireFolder(
  db: Executor,
  actor: Actor,
  action: EntryAction,
  scope: ResolvedScope,
  folderId: string | null | undefined,
  field = 'folderId',
): Promise<FileEntryRow | null> {
  if (!folderId || folderId === ROOT_HASH) {
    if (decide(actor, action, scope.rootActions) !== 'allow') throw Forbidden();
    return null;
  }
  const folder = await requireEntry(db, actor, action, folderId);
  if (folder.type !== 'folder') throw ValidationError.field(field, 'The selected destination is not a folder.');
  return folder;
}

/** Rows already loaded (parents, say): the same decision without another lookup. */
export async function requireRows(db: Executor, actor: Actor, action: EntryAction, rows: FileEntryRow[]): Promise<void> {
  const grants = await loadGrants(db, actor, rows);
  const decisions = rows.map((row) => decide(actor, action, grants.get(row.id)));
  if (decisions.includes('not-found')) throw NotFound(ENTRIES_NOT_FOUND);
  if (decisions.includes('forbidden')) throw Forbidden();
}

/** The root of a space, as the caller's grant on it allows. */
export async function requireRoot(db: Executor, actor: Actor, action: EntryAction, space: Scope): Promise<void> {
  const decision = decide(actor, action, await loadRootGrant(db, actor, space));
  if (decision === 'not-found') throw NotFound(ENTRIES_NOT_FOUND);
  if (decision === 'forbidden') throw Forbidden();
}
