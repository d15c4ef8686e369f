import type { Expression, Kysely, SqlBool } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/types.js';
import { NotFound, Unauthenticated } from '../../lib/errors.js';
import { inScope, type Scope } from '../drive/repository.js';
import { NO_ACTIONS, type ActionSet } from './actions.js';
import { signedInUserId, type Actor } from './actor.js';
import { loadRootGrant, sharedWithFilter } from './grants.repository.js';
import { loadMembership } from './memberships.repository.js';

export const WORKSPACE_NOT_FOUND = 'This workspace does not exist.';

/** A space the caller was checked against, with what they may do at its root. */
export interface ResolvedScope extends Scope {
  rootActions: ActionSet;
}

/**
 * The space a drive call works in: the caller's personal space, or the
 * workspace named by `?workspaceId=` — only if the caller holds a grant on it
 * (membership). An unknown or foreign workspace answers 404 before any
 * listing filter is built, so the query string is never trusted.
 */
export async function resolveScope(db: Kysely<Database>, actor: Actor, workspaceId: number | null): Promise<ResolvedScope> {
  // A link reaches the space of its entry and nothing at any root; the query string plays no part.
  if (actor.kind === 'link') return { ownerId: actor.entry.ownerId, workspaceId: actor.entry.workspaceId, rootActions: NO_ACTIONS };
  const userId = signedInUserId(actor);
  if (userId === null) throw Unauthenticated();
  let scope: Scope = { ownerId: userId, workspaceId: null };
  if (workspaceId) {
    // A workspace's entries all belong to its owner (who pays for them), so its space is theirs.
    const membership = await loadMembership(db, userId, workspaceId);
    if (!membership) throw NotFound(WORKSPACE_NOT_FOUND);
    scope = { ownerId: membership.ownerId, workspaceId };
  }
  const rootActions = await loadRootGrant(db, actor, scope);
  if (rootActions.size === 0) throw NotFound(WORKSPACE_NOT_FOUND);
  return { ...scope, rootActions };
}

export type ListingView = 'folder' | 'recent' | 'sql' | 'shared' | 'trash' | 'starred';

/** Which rows a listing may show at all; the view's own conditions narrow it further. */
export function listFilter(actor: Actor, scope: Scope, view: ListingView): Expression<SqlBool> {
  return view === 'shared' ? sharedWithFilter(actor) : inScope(scope);
}

/** "Owned by others": entries in the listing that the caller does not own. */
export function ownedByOthers(actor: Actor): Expression<SqlBool> {
  return sql<SqlBool>`file_entries.owner_id <> ${signedInUserId(actor) ?? 0}`;
}
