import { sql } from 'kysely';
import { signedInUserId, type Actor } from '../access/actor.js';
import { loadGrants } from '../access/grants.repository.js';
import type { ActionSet, EntryAction } from '../access/actions.js';
import { allowedActionsOf } from '../access/policy.js';
import { presentEntry, type EntryWithRelations, type PresentableEntry } from './presenter.js';
import type { Tuple } from '../../db/tuples.js';
import type { Executor } from './repository.js';

/** file_entries with what presenters read from around each row: the parent, the caller's star, the owner. */
function withRelations(db: Executor, userId: number | null) {
  return db
    .selectFrom('file_entries')
    .leftJoin('file_entries as parent', 'parent.id', 'file_entries.parent_id')
    .leftJoin('file_entry_stars as star', (join) => join.onRef('star.entry_id', '=', 'file_entries.id').on('star.user_id', '=', userId ?? 0))
    .leftJoin('users as owner', 'owner.id', 'file_entries.owner_id');
}

const RELATIONS = [
  'parent.hash as parent_hash',
  'star.user_id as starred_by',
  'owner.first_name as owner_first_name',
  'owner.last_name as owner_last_name',
  'owner.email as owner_email',
] as const;

// Whether anyone was given access (a person or a link).
const shared = sql<
  number | boolean
>`(exists (select 1 from entry_shares where entry_shares.entry_id = file_entries.id) or exists (select 1 from share_links where share_links.entry_id = file_entries.id))`;

/** Entries with their parent's hash, the caller's star and whether anyone was given access (a person or a link): the shape presenters read. */
export function entriesQuery(db: Executor, userId: number | null) {
  return withRelations(db, userId).selectAll('file_entries').select(RELATIONS).select(shared.as('shared'));
}

/** The columns of file_entries that presenting and deciding access read (presenter.ts, access/grants.repository.ts). */
const PAGE_COLUMNS = [
  'id',
  'hash',
  'name',
  'description',
  'type',
  'mime',
  'extension',
  'file_size',
  'path',
  'owner_id',
  'workspace_id',
  'deleted_at',
  'purge_at',
  'created_at',
  'updated_at',
] as const;

/** A row as a page presents it: what the presenter and the access rules read of entriesQuery's. */
export type PageEntry = PresentableEntry & Pick<EntryWithRelations, 'id' | 'path'>;

/**
 * entriesQuery's rows for a page read as tuples (db/tuples.ts): its columns
 * named one by one, in the order entryFromTuple reads them; whatever the
 * caller selects after them starts at PAGE_TUPLE_REST.
 */
export function pageTuplesQuery(db: Executor, userId: number | null) {
  return withRelations(db, userId)
    .select(PAGE_COLUMNS.map((column) => `file_entries.${column}` as const))
    .select(RELATIONS)
    .select(shared.as('shared'));
}

export const PAGE_TUPLE_REST = PAGE_COLUMNS.length + RELATIONS.length + 1;

/** One tuple of pageTuplesQuery as the object presenters read: a literal of one shape, far cheaper than the driver's named rows. */
export function entryFromTuple(t: Tuple): PageEntry {
  return {
    id: t[0] as number,
    hash: t[1] as string,
    name: t[2] as string,
    description: t[3] as string | null,
    type: t[4] as string,
    mime: t[5] as string | null,
    extension: t[6] as string | null,
    file_size: t[7] as number,
    path: t[8] as string,
    owner_id: t[9] as number,
    workspace_id: t[10] as number | null,
    deleted_at: t[11] as string | null,
    purge_at: t[12] as string | null,
    created_at: t[13] as string,
    updated_at: t[14] as string,
    parent_hash: t[15] as string | null,
    starred_by: t[16] as number | null,
    owner_first_name: t[17] as string | null,
    owner_last_name: t[18] as string | null,
    owner_email: t[19] as string | null,
    shared: t[20] as number | boolean | null,
  };
}

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
  const rows: EntryWithRelations[] = await entriesQuery(db, userId).where('file_entries.id', 'in', ids).execute();
  const order = new Map(ids.map((id, index) => [id, index]));
  return presentRows(
    db,
    actor,
    rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
  );
}
