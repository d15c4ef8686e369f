import { signedInUserId, type Actor } from '../access/actor.js';
import { loadGrants } from '../access/grants.repository.js';
import type { ActionSet, EntryAction } from '../access/actions.js';
import { allowedActionsOf } from '../access/policy.js';
import { entriesByIds, type PageEntry } from './listing.repository.js';
import { presentEntry } from './presenter.js';
import type { Executor } from './repository.js';

/** Rows on the wire, each with the actions the caller's grant on it allows (so clients never guess). */
export async function presentRows(db: Executor, actor: Actor, rows: PageEntry[]) {
  const grants = await loadGrants(db, actor, rows);
  const allowed = allowedActionsOf(actor);
  // Rows holding the same grant (every owned row holds ALL_ACTIONS itself) share one list: a page is only written out.
  const byGrant = new Map<ActionSet | undefined, EntryAction[]>();
  return rows.map((row) => {
    const grant = grants.get(row.id);
    let permissions = byGrant.get(grant);
    if (!permissions) byGrant.set(grant, (permissions = allowed(grant)));
    return presentEntry(row, permissions);
  });
}

export async function presentByIds(db: Executor, actor: Actor, ids: number[]) {
  if (!ids.length) return [];
  const userId = signedInUserId(actor);
  const rows = await entriesByIds(db, userId, ids);
  const order = new Map(ids.map((id, index) => [id, index]));
  return presentRows(
    db,
    actor,
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
  );
}
