import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { Forbidden, NotFound } from '../../lib/errors.js';
import { userIdOf, type Actor } from './actor.js';
import { loadMembership } from './memberships.repository.js';
import { WORKSPACE_NOT_FOUND } from './scope.js';
import { decideWorkspace, type Membership, type WorkspaceAction } from './workspace-policy.js';

/**
 * The one entry point that decides access to a workspace itself: the
 * caller's membership, or 404 for a workspace they are not in (its existence
 * is not revealed) and 403 for one they are in but may not do this to.
 */
export async function requireWorkspace(db: Kysely<Database>, actor: Actor, action: WorkspaceAction, workspaceId: number): Promise<Membership> {
  const membership = await loadMembership(db, userIdOf(actor), workspaceId);
  const decision = decideWorkspace(action, membership);
  if (decision === 'not-found') throw NotFound(WORKSPACE_NOT_FOUND);
  if (decision === 'forbidden') throw Forbidden();
  return membership!;
}
