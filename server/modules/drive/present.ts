import { sql } from 'kysely';
import { signedInUserId, type Actor } from '../access/actor.js';
import { loadGrants } from '../access/grants.repository.js';
import { allowedActionsOf } from '../access/policy.js';
import { presentEntry, type EntryWithRelations } from './presenter.js';
import type { Executor } from './repository.js';

/** Entries with their parent's hash, the caller's star and whether anyone was given access (a person or a link): the shape presenters read. */
export function entriesQuery(db: Executor, userId: number | null) {
  return db
    .selectFrom('file_entries')
    .leftJoin('file_entries as parent', 'parent.id', 'file_entries.parent_id')
    .leftJoin('file_entry_stars as star', (join) => join.onRef('star.entry_id', '=', 'file_entries.id').on('star.user_id', '=', userId ?? 0))
    .leftJoin('users as owner', 'owner.id', 'file_entries.owner_id')
    .selectAll('file_entries')
    .select([
      'parent.hash as parent_hash',
      'star.user_id as starred_by',
      'owner.first_name as owner_first_name',
      'owner.last_name as owner_last_name',
      'owner.email as owner_email',
    ])
    .select(
      sql<
        number | boolean
      >`(exists (select 1 from entry_shares where entry_shares.entry_id = file_entries.id) or exists (select 1 from share_links where share_links.entry_id = file_entries.id))`.as(
        'shared',
      ),
    );
}

/** Rows on the wire, each with the actions the caller's grant on it allows (so clients never guess). */
export async function presentRows(db: Executor, actor: Actor, rows: EntryWithRelations[]) {
  const grants = await loadGrants(db, actor, rows);
  const allowed = allowedActionsOf(actor);
  return rows.map((row) => presentEntry(row, allowed(grants.get(row.id))));
}

export async function presentByIds(db: Executor, actor: Actor, ids: number[]) {
  if (!ids.length) return [];
  const userId = signedInUserId(actor);
  const rows: EntryWithRelations[] = await entriesQuery(db, userId).where('file_entries.id', 'in', ids).execute();
  const order = new Map(ids.map((id, index) => [id, index]));
  return presentRows(
    db,
    actor,
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
  );
}
