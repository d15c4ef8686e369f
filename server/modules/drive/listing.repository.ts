import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { preparedTuples } from '../../db/prepared.js';
import { plainEntries, type EntriesFrom, type NameWalk, type SortKey } from '../../db/search.js';
import type { Tuple } from '../../db/tuples.js';
import type { Database } from '../../db/types.js';
import type { EntryWithRelations, PresentableEntry } from './presenter.js';
import { inScope, type Executor } from './repository.js';
import type { OrderColumn } from './schemas.js';

/**
 * SQL of the listing and of presenting entries: the statements a page reads
 * (the plain folder page prepared once per shape and read as tuples, the
 * general page, a walked name search's page, the count), their sort keys and
 * cursor condition. listing.ts decides which runs; present.ts builds the wire.
 */

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

/** entriesQuery's rows for `ids`, in no particular order. */
export function entriesByIds(db: Executor, userId: number | null, ids: number[]): Promise<EntryWithRelations[]> {
  return entriesQuery(db, userId).where('file_entries.id', 'in', ids).execute();
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

const lowerName = sql<string>`lower(file_entries.name)`;
const folderRank = sql<number>`case when file_entries.type = 'folder' then 0 else 1 end`;

const sortKeysMade = new Map<string, SortKey[]>();

/** The ORDER BY of a listing; every one ends with the id so that rows never tie (keyset paging). */
export function sortKeys(orderBy: OrderColumn, dir: 'asc' | 'desc'): SortKey[] {
  // Made once per sort: the expressions are immutable, and every request asked for the same few.
  const name = `${orderBy}:${dir}`;
  let keys = sortKeysMade.get(name);
  if (!keys) sortKeysMade.set(name, (keys = makeSortKeys(orderBy, dir)));
  return keys;
}

function makeSortKeys(orderBy: OrderColumn, dir: 'asc' | 'desc'): SortKey[] {
  const id: SortKey = { expr: sql`file_entries.id`, dir };
  switch (orderBy) {
    // Folders first for name sorts, in either direction.
    case 'name':
      return [{ expr: folderRank, dir: 'asc' }, { expr: lowerName, dir }, id];
    case 'type':
      return [{ expr: sql`file_entries.type`, dir }, { expr: lowerName, dir }, id];
    default:
      return [{ expr: sql.ref(`file_entries.${orderBy}`), dir }, id];
  }
}

/** `(k0, k1, …) > (v0, v1, …)` in each key's own direction, written out for both dialects. */
export function after(keys: SortKey[], values: unknown[]): Expression<SqlBool> {
  const branches = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k, j) => sql`${k.expr} = ${values[j]}`);
    const beyond = key.dir === 'asc' ? sql`${key.expr} > ${values[i]}` : sql`${key.expr} < ${values[i]}`;
    return sql.join([...equal, beyond], sql` and `);
  });
  return sql<SqlBool>`(${sql.join(
    branches.map((b) => sql`(${b})`),
    sql` or `,
  )})`;
}

/** Either condition (a name's match or a content match). */
export const either = (a: Expression<SqlBool>, b: Expression<SqlBool>): Expression<SqlBool> => sql<SqlBool>`(${a} or ${b})`;

export type JoinedDb = Database & { parent: Database['file_entries']; star: Database['file_entry_stars'] };
/** What a listing's conditions are built with: file_entries, its parent and the caller's star. */
export type ListingEb = ExpressionBuilder<JoinedDb, 'file_entries' | 'parent' | 'star'>;
/** The rows a listing's conditions pick, before it selects anything (file_entries with its parent and the caller's star). */
export type SpaceRows = SelectQueryBuilder<JoinedDb, 'file_entries' | 'parent' | 'star', object>;
/** A listing's conditions on SpaceRows. */
export type ListingWhere = (eb: ListingEb) => Expression<SqlBool>;
/** A page's rows as entriesQuery reads them, with each sort key's value as `k0`, `k1`, …. */
export type KeyedRow = EntryWithRelations & Record<string, unknown>;

/**
 * file_entries as a view's conditions need it (`from`: a name search's matches, or the table itself): with its
 * parent and the caller's star when `joined` (trash and starred), alone otherwise (the other views' conditions
 * name no other table, which makes the cast safe).
 */
export function listedEntries(db: Executor, from: EntriesFrom | null, userId: number, joined: boolean): SpaceRows {
  const entries = (from ?? plainEntries)(db);
  if (!joined) return entries as unknown as SpaceRows;
  return entries
    .leftJoin('file_entries as parent', 'parent.id', 'file_entries.parent_id')
    .leftJoin('file_entry_stars as star', (join) => join.onRef('star.entry_id', '=', 'file_entries.id').on('star.user_id', '=', userId));
}

/** What changes from one plain folder page to the next; `FolderPageShape` says which statement reads them. */
export interface FolderPageValues extends Record<string, unknown> {
  userId: number;
  ownerId: number;
  workspaceId: number | null;
  folderId: number | null;
  offset: number;
}

export interface FolderPageShape {
  orderBy: OrderColumn;
  orderDir: 'asc' | 'desc';
  inFolder: boolean;
  inWorkspace: boolean;
  /** Part of the shape, not a value: SQLite's limit is written into the statement (db/inline-limit.ts). A page size. */
  limit: number;
}

/**
 * A folder's (or a root's) page with no search, filter or cursor: the same
 * conditions as DriveListing.list builds for it (in the same order), compiled
 * once per sort and kind of folder and space, its rows read as tuples
 * (pageTuplesQuery's, then the sort keys from PAGE_TUPLE_REST).
 */
export const folderPageTuples = preparedTuples(
  (s: FolderPageShape) => `${s.orderBy}:${s.orderDir}:${s.inFolder ? 'folder' : 'root'}:${s.inWorkspace ? 'workspace' : 'personal'}:${s.limit}`,
  (db, v: FolderPageValues, s: FolderPageShape) => {
    const space = { ownerId: v.ownerId, workspaceId: s.inWorkspace ? v.workspaceId : null };
    let rows = pageTuplesQuery(db, v.userId)
      .where((eb) =>
        eb.and([
          // listFilter's condition for a folder view.
          inScope(space),
          eb('file_entries.deleted_at', 'is', null),
          s.inFolder ? eb('file_entries.parent_id', '=', v.folderId) : eb('file_entries.parent_id', 'is', null),
        ]),
      )
      .offset(v.offset);
    sortKeys(s.orderBy, s.orderDir).forEach((key, i) => {
      rows = rows.select(sql`${key.expr}`.as(`k${i}`)).orderBy(key.expr, key.dir);
    });
    return rows.limit(s.limit);
  },
);

/** Where a general page starts and how many rows it reads: after a cursor's condition, or from an offset. */
export interface PageWindow {
  cursorAt: Expression<SqlBool> | null;
  offset: number;
  limit: number;
}

/**
 * A page of `rows` (a view's entries with its conditions) in the order of
 * `keys`. `pickIdsFirst`: the page's ids are picked from `rows` alone, and
 * only those get the presenters' joins and subqueries, which SQLite would
 * otherwise work out for every row before sorting (read from a name search's
 * few matches, ~1,100 of them over 1M entries). `ordered`: those rows come in
 * the listing's order already (PostgreSQL's matches), read in it up to the page.
 */
export async function listingPage(
  db: Executor,
  userId: number,
  keys: SortKey[],
  rows: SpaceRows,
  where: ListingWhere,
  window: PageWindow,
  ids: { pickFirst: boolean; ordered: boolean },
): Promise<KeyedRow[]> {
  const { cursorAt, offset, limit } = window;
  let rowsQuery = entriesQuery(db, userId);
  if (ids.pickFirst) {
    let picked = rows.select('file_entries.id').where(where);
    if (ids.ordered) picked = picked.orderBy(sql`candidate.place`);
    else for (const key of keys) picked = picked.orderBy(key.expr, key.dir);
    picked = cursorAt ? picked.where(cursorAt) : picked.offset(offset);
    rowsQuery = rowsQuery.where('file_entries.id', 'in', picked.limit(limit));
  } else {
    rowsQuery = rowsQuery.where(where);
    rowsQuery = cursorAt ? rowsQuery.where(cursorAt) : rowsQuery.offset(offset);
  }
  keys.forEach((key, i) => {
    rowsQuery = rowsQuery.select(sql`${key.expr}`.as(`k${i}`)).orderBy(key.expr, key.dir);
  });
  return (await rowsQuery.limit(limit).execute()) as KeyedRow[];
}

/**
 * A page from the first `walk.rows` rows of the space in the listing's order (`space`: the
 * listing's conditions but the name's), each tested by the walk's name check; only the page's
 * rows then get the presenters' joins.
 */
export async function walkedPage(db: Executor, userId: number, keys: SortKey[], walk: NameWalk, space: SpaceRows, window: PageWindow): Promise<KeyedRow[]> {
  const { cursorAt, offset, limit } = window;
  let walked = space.select(['file_entries.id', 'file_entries.name as walked_name']);
  keys.forEach((key, i) => {
    walked = walked.select(sql`${key.expr}`.as(`k${i}`)).orderBy(key.expr, key.dir);
  });
  if (cursorAt) walked = walked.where(cursorAt);
  let ids = db
    .selectFrom(walked.limit(walk.rows).as('walked'))
    .select('walked.id')
    .where(walk.check(sql.ref<string>('walked.walked_name')));
  // The window's own order: SQLite reads it as it comes, without sorting it again (the plan tests pin that).
  keys.forEach((key, i) => {
    ids = ids.orderBy(sql.ref(`walked.k${i}`), key.dir);
  });
  if (!cursorAt) ids = ids.offset(offset);
  let rowsQuery = entriesQuery(db, userId).where('file_entries.id', 'in', ids.limit(limit));
  keys.forEach((key, i) => {
    rowsQuery = rowsQuery.select(sql`${key.expr}`.as(`k${i}`)).orderBy(key.expr, key.dir);
  });
  return (await rowsQuery.execute()) as KeyedRow[];
}

/** How many of `rows` the conditions pick (a numbered page's total). */
export async function countListed(rows: SpaceRows, where: ListingWhere): Promise<number> {
  const counted = await rows
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(where)
    .executeTakeFirstOrThrow();
  return Number(counted.count);
}
