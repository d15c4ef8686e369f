import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { preparedTuples } from '../../db/prepared.js';
import type { Database } from '../../db/types.js';
import { plainEntries, type NameSearch, type NameWalk, type SortKey } from '../../db/search.js';
import { ValidationError } from '../../lib/errors.js';
import { signedInUserId, type Actor } from '../access/actor.js';
import { loadGrants } from '../access/grants.repository.js';
import { allowedActions, decide } from '../access/policy.js';
import { requireFolder, ROOT_HASH } from '../access/require.js';
import { listFilter, ownedByOthers, type ListingView, type ResolvedScope } from '../access/scope.js';
import { Forbidden } from '../../lib/errors.js';
import type { FileEntryRow } from '../../db/types.js';
import { SQL_EXTENSIONS } from './kinds.js';
import { entriesQuery, entryFromTuple, PAGE_TUPLE_REST, pageTuplesQuery, presentRows, type PageEntry } from './present.js';
import type { EntryWithRelations } from './presenter.js';
import { descendantsOf, inScope, spaceOf, type Executor, type Scope } from './repository.js';
import type { ListQuery, OrderColumn } from './schemas.js';

/** A run of a content match's snippet (modules/search/fold.ts makes them). */
export interface SnippetSegment {
  text: string;
  match: boolean;
}

/**
 * Content search as the listing uses it (built by modules/search, which owns
 * the text): a condition on `file_entries.id` that the listing wraps in its
 * access rules and filters, and the snippets of a page's matches.
 */
export interface ContentSearch {
  /** Null when the query has no word to look for. */
  condition(query: string): Expression<SqlBool> | null;
  snippets(ids: number[], query: string): Promise<Map<number, SnippetSegment[]>>;
}

type JoinedDb = Database & { parent: Database['file_entries']; star: Database['file_entry_stars'] };
type Eb = ExpressionBuilder<JoinedDb, 'file_entries' | 'parent' | 'star'>;
/** The rows a listing's conditions pick, before it selects anything (file_entries with its parent and the caller's star). */
type SpaceRows = SelectQueryBuilder<JoinedDb, 'file_entries' | 'parent' | 'star', object>;
type View = ListingView;
/** A page's rows, whether more follow, and the sort values of its last row (which the next page's cursor starts after). */
type Read = { page: PageEntry[]; more: boolean; lastKeys: () => unknown[] };

function viewOf(query: ListQuery): View {
  if (query.deletedOnly) return 'trash';
  if (query.starredOnly) return 'starred';
  if (query.recentOnly) return 'recent';
  if (query.sqlOnly) return 'sql';
  if (query.sharedOnly) return 'shared';
  return 'folder';
}

const lowerName = sql<string>`lower(file_entries.name)`;
const folderRank = sql<number>`case when file_entries.type = 'folder' then 0 else 1 end`;

const sortKeysMade = new Map<string, SortKey[]>();

/** The ORDER BY of a listing; every one ends with the id so that rows never tie (keyset paging). */
function sortKeys(orderBy: OrderColumn, dir: 'asc' | 'desc'): SortKey[] {
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
function after(keys: SortKey[], values: unknown[]): Expression<SqlBool> {
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

function encodeCursor(signature: string, values: unknown[]): string {
  return Buffer.from(JSON.stringify({ s: signature, v: values })).toString('base64url');
}

function decodeCursor(cursor: string, signature: string, length: number): unknown[] {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as { s?: unknown; v?: unknown };
    const values = parsed.v;
    if (parsed.s === signature && Array.isArray(values) && values.length === length && values.every((v) => typeof v === 'string' || typeof v === 'number')) {
      return values;
    }
  } catch {
    // fall through to the 422 below
  }
  throw ValidationError.field('cursor', 'The cursor is invalid or belongs to another sort order; start again from the first page.');
}

/** `2026-03-01` counts as that whole day; a date-time is taken as given. */
function dateBound(value: string, end: boolean): { op: '>=' | '<' | '<='; iso: string } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = new Date(`${value}T00:00:00.000Z`);
    return end ? { op: '<', iso: new Date(start.getTime() + 86_400_000).toISOString() } : { op: '>=', iso: start.toISOString() };
  }
  return { op: end ? '<=' : '>=', iso: new Date(value).toISOString() };
}

/** What changes from one plain folder page to the next; `FolderPageShape` says which statement reads them. */
interface FolderPageValues extends Record<string, unknown> {
  userId: number;
  ownerId: number;
  workspaceId: number | null;
  folderId: number | null;
  offset: number;
  limit: number;
}

interface FolderPageShape {
  orderBy: OrderColumn;
  orderDir: 'asc' | 'desc';
  inFolder: boolean;
  inWorkspace: boolean;
}

/**
 * A folder's (or a root's) page with no search, filter or cursor: the same
 * conditions as DriveListing.list builds for it (in the same order), compiled
 * once per sort and kind of folder and space, its rows read as tuples
 * (present.ts pageTuplesQuery, then the sort keys).
 */
const folderPage = preparedTuples(
  (s: FolderPageShape) => `${s.orderBy}:${s.orderDir}:${s.inFolder ? 'folder' : 'root'}:${s.inWorkspace ? 'workspace' : 'personal'}`,
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
    return rows.limit(v.limit);
  },
);

/**
 * Drive listings (spec §2 views, §3 Drive listing view, §9 sorts): a folder,
 * recent, SQL backups, shared, trash and starred, each optionally narrowed by
 * a name query and filters. With a query or filter, a folder listing becomes a
 * search of that folder's whole subtree (the root: the whole drive).
 */
export class DriveListing {
  constructor(
    private readonly db: Executor,
    private readonly search: NameSearch,
    private readonly contentSearch: () => ContentSearch | null = () => null,
  ) {}

  async list(actor: Actor, scope: ResolvedScope, query: ListQuery) {
    // A link visitor lists as nobody: no stars, and nothing is "mine".
    const userId = signedInUserId(actor) ?? 0;
    const view = viewOf(query);
    const folder = view === 'folder' ? await requireFolder(this.db, actor, 'files.view', scope, query.folderId) : null;
    if (view !== 'folder' && decide(actor, 'files.view', scope.rootActions) !== 'allow') throw Forbidden();
    const searchText = query.query?.trim() ?? '';
    const searching = Boolean(searchText || query.type || query.modifiedFrom || query.modifiedTo || query.owner);

    const orderBy = query.orderBy ?? (view === 'recent' || view === 'sql' ? 'created_at' : 'updated_at');
    const orderDir = query.orderDir ?? 'desc';
    const keys = sortKeys(orderBy, orderDir);
    const signature = `${orderBy}:${orderDir}`;

    // A folder's children live in the folder's space, whichever space the call was made in
    // (a folder shared from someone else's space lists that space's rows).
    const space = folder ? spaceOf(folder) : scope;
    // Inside files too when asked: name or text, within the same access rules and filters.
    const content = searchText && query.content ? this.contentSearch() : null;
    const contentMatch = content?.condition(searchText) ?? null;
    // The name's matches may be where the statement starts (db/search.ts) only when no content match can add rows.
    const offset = ((query.page ?? 1) - 1) * query.perPage;
    const limit = query.perPage + 1;
    if (view === 'folder' && !searching && !query.cursor && query.page === undefined) {
      // The first page of a folder as the web app asks for it (no page number, so no count): none of the general
      // path's closures below are made for it (issue 38 §3).
      const { page, more, lastKeys } = await this.plainFolderPage(userId, space, folder, orderBy, orderDir, offset, limit, query.perPage);
      return {
        pagination: {
          data: await presentRows(this.db, actor, page),
          current_page: 1,
          per_page: query.perPage,
          total: null,
          last_page: null,
          next_cursor: more && page.length ? encodeCursor(signature, lastKeys().map(normaliseKey)) : null,
        },
        folder: await this.folderInfo(actor, scope, view, folder),
      };
    }
    const nameMatch = searchText ? await this.search.match(this.db, searchText, { alone: !contentMatch, wanted: offset + limit, order: keys }) : null;
    const from = nameMatch?.from ?? null;
    // Read through the matches, the rows need no name condition: the join holds exactly those.
    const nameCondition = from ? null : nameMatch && contentMatch ? sql<SqlBool>`(${nameMatch.condition} or ${contentMatch})` : (nameMatch?.condition ?? null);
    // `name`: the name's condition, left out by a walk that tests each name itself.
    const where = (eb: Eb, name: Expression<SqlBool> | null = nameCondition): Expression<SqlBool> => {
      const conditions: Expression<SqlBool>[] = [listFilter(actor, space, view)];
      switch (view) {
        case 'trash':
          // The tops of trashed subtrees: whatever went to trash with its folder shows as that folder.
          conditions.push(eb('file_entries.deleted_at', 'is not', null));
          conditions.push(
            eb.or([eb('parent.id', 'is', null), eb('parent.deleted_at', 'is', null), eb('parent.deleted_at', '!=', eb.ref('file_entries.deleted_at'))]),
          );
          break;
        case 'starred':
          conditions.push(eb('file_entries.deleted_at', 'is', null), eb('star.user_id', 'is not', null));
          break;
        case 'recent':
          conditions.push(eb('file_entries.deleted_at', 'is', null), eb('file_entries.type', '!=', 'folder'));
          break;
        case 'sql':
          conditions.push(eb('file_entries.deleted_at', 'is', null), eb('file_entries.extension', 'in', SQL_EXTENSIONS));
          break;
        case 'shared':
          conditions.push(eb('file_entries.deleted_at', 'is', null));
          break;
        case 'folder':
          conditions.push(eb('file_entries.deleted_at', 'is', null));
          if (searching) {
            if (folder) conditions.push(descendantsOf(folder.path));
          } else {
            conditions.push(folder ? eb('file_entries.parent_id', '=', folder.id) : eb('file_entries.parent_id', 'is', null));
          }
          break;
      }
      if (name) conditions.push(name);
      if (query.type) conditions.push(eb('file_entries.type', '=', query.type));
      if (query.modifiedFrom) {
        const bound = dateBound(query.modifiedFrom, false);
        conditions.push(eb('file_entries.updated_at', bound.op, bound.iso));
      }
      if (query.modifiedTo) {
        const bound = dateBound(query.modifiedTo, true);
        conditions.push(eb('file_entries.updated_at', bound.op, bound.iso));
      }
      if (query.owner === 'others') conditions.push(ownedByOthers(actor));
      if (query.owner === 'me') conditions.push(eb('file_entries.owner_id', '=', userId));
      return eb.and(conditions);
    };

    // file_entries as the view's conditions need it: with its parent and the caller's star for trash and
    // starred, alone for the others (their conditions name no other table, which makes the cast safe).
    const entries = () => (from ?? plainEntries)(this.db);
    const joinedEntries = () => {
      const joined = entries()
        .leftJoin('file_entries as parent', 'parent.id', 'file_entries.parent_id')
        .leftJoin('file_entry_stars as star', (join) => join.onRef('star.entry_id', '=', 'file_entries.id').on('star.user_id', '=', userId));
      return view === 'trash' || view === 'starred' ? joined : (entries() as unknown as typeof joined);
    };

    const useCursor = Boolean(query.cursor);
    const cursorAt = query.cursor ? after(keys, decodeCursor(query.cursor, signature, keys.length)) : null;
    const fromRows = (rows: (EntryWithRelations & Record<string, unknown>)[]): Read => {
      const page = rows.slice(0, query.perPage);
      return { page, more: rows.length > query.perPage, lastKeys: () => keys.map((_, i) => rows[page.length - 1]![`k${i}`]) };
    };
    let read: Read;
    // A broad name search's walk (db/search.ts) where an index yields the space's rows in the listing's
    // order, so that it stops at its page: a personal space by date. Elsewhere it would sort the space first.
    const walk = view === 'folder' && !space.workspaceId && (orderBy === 'updated_at' || orderBy === 'created_at') ? (nameMatch?.walk ?? null) : null;
    const walked = walk
      ? await this.walkedPage(
          userId,
          keys,
          walk,
          joinedEntries().where((eb) => where(eb, null)),
          cursorAt,
          offset,
          limit,
        )
      : null;
    if (walked && walked.length === limit) {
      // A full page; a short one may only mean the walk stopped, so it is read again below.
      read = fromRows(walked);
    } else if (view === 'folder' && !searching && !cursorAt) {
      read = await this.plainFolderPage(userId, space, folder, orderBy, orderDir, offset, limit, query.perPage);
    } else {
      let rowsQuery = entriesQuery(this.db, userId);
      if (from) {
        // Read from a name search's few matches (db/search.ts), the page's ids are picked first from
        // file_entries alone; only those rows then get the presenters' joins and subqueries, which
        // SQLite would otherwise work out for every match before sorting (~1,100 of them over 1M entries).
        // Matches handed over in the listing's order (PostgreSQL) are read in that order, up to the page.
        let ids = joinedEntries().select('file_entries.id').where(where);
        if (nameMatch?.ordered) ids = ids.orderBy(sql`candidate.place`);
        else for (const key of keys) ids = ids.orderBy(key.expr, key.dir);
        ids = cursorAt ? ids.where(cursorAt) : ids.offset(offset);
        rowsQuery = rowsQuery.where('file_entries.id', 'in', ids.limit(limit));
      } else {
        rowsQuery = rowsQuery.where(where);
        rowsQuery = cursorAt ? rowsQuery.where(cursorAt) : rowsQuery.offset(offset);
      }
      keys.forEach((key, i) => {
        rowsQuery = rowsQuery.select(sql`${key.expr}`.as(`k${i}`)).orderBy(key.expr, key.dir);
      });
      read = fromRows((await rowsQuery.limit(limit).execute()) as (EntryWithRelations & Record<string, unknown>)[]);
    }
    const { page, more, lastKeys } = read;
    const nextCursor = more && page.length ? encodeCursor(signature, lastKeys().map(normaliseKey)) : null;

    let total: number | null = null;
    // Counted only when the caller pages by number (see the schema's `page`).
    if (!useCursor && query.page !== undefined) {
      // Only the trash and starred conditions read the joined tables. Counting a big folder through
      // the joins costs ~3x the plain index count (7.8 vs 2.2 ms for 90k rows), and the count runs on
      // every first page, so other views count file_entries alone.
      const counted = await joinedEntries()
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where(where)
        .executeTakeFirstOrThrow();
      total = Number(counted.count);
    }

    const data: (Awaited<ReturnType<typeof presentRows>>[number] & { content_match?: { segments: SnippetSegment[] } | null })[] = await presentRows(
      this.db,
      actor,
      page,
    );
    if (content && contentMatch) {
      const files = page.filter((row) => row.type !== 'folder').map((row) => row.id);
      const snippets = await content.snippets(files, searchText);
      page.forEach((row, i) => {
        const segments = snippets.get(row.id);
        data[i]!.content_match = segments ? { segments } : null;
      });
    }

    return {
      pagination: {
        data,
        current_page: useCursor ? null : (query.page ?? 1),
        per_page: query.perPage,
        total,
        last_page: total === null ? null : Math.max(1, Math.ceil(total / query.perPage)),
        next_cursor: nextCursor,
      },
      folder: await this.folderInfo(actor, scope, view, folder),
    };
  }

  /** A folder's page with no search, filter or cursor: its statement is compiled once per shape (see folderPage). */
  private async plainFolderPage(
    userId: number,
    space: Scope,
    folder: FileEntryRow | null,
    orderBy: OrderColumn,
    orderDir: 'asc' | 'desc',
    offset: number,
    limit: number,
    perPage: number,
  ): Promise<Read> {
    const values = { userId, ownerId: space.ownerId, workspaceId: space.workspaceId ?? null, folderId: folder?.id ?? null, offset, limit };
    const tuples = await folderPage(this.db, values, { orderBy, orderDir, inFolder: folder !== null, inWorkspace: Boolean(space.workspaceId) });
    const page = tuples.slice(0, perPage).map(entryFromTuple);
    return { page, more: tuples.length > perPage, lastKeys: () => tuples[page.length - 1]!.slice(PAGE_TUPLE_REST) };
  }

  /**
   * A page from the first `walk.rows` rows of the space in the listing's order (`space`: the
   * listing's conditions but the name's), each tested by the walk's name check; only the page's
   * rows then get the presenters' joins.
   */
  private async walkedPage(
    userId: number,
    keys: SortKey[],
    walk: NameWalk,
    space: SpaceRows,
    cursorAt: Expression<SqlBool> | null,
    offset: number,
    limit: number,
  ): Promise<(EntryWithRelations & Record<string, unknown>)[]> {
    let window = space.select(['file_entries.id', 'file_entries.name as walked_name']);
    keys.forEach((key, i) => {
      window = window.select(sql`${key.expr}`.as(`k${i}`)).orderBy(key.expr, key.dir);
    });
    if (cursorAt) window = window.where(cursorAt);
    let ids = this.db
      .selectFrom(window.limit(walk.rows).as('walked'))
      .select('walked.id')
      .where(walk.check(sql.ref<string>('walked.walked_name')));
    // The window's own order: SQLite reads it as it comes, without sorting it again (the plan tests pin that).
    keys.forEach((key, i) => {
      ids = ids.orderBy(sql.ref(`walked.k${i}`), key.dir);
    });
    if (!cursorAt) ids = ids.offset(offset);
    let rowsQuery = entriesQuery(this.db, userId).where('file_entries.id', 'in', ids.limit(limit));
    keys.forEach((key, i) => {
      rowsQuery = rowsQuery.select(sql`${key.expr}`.as(`k${i}`)).orderBy(key.expr, key.dir);
    });
    return (await rowsQuery.execute()) as (EntryWithRelations & Record<string, unknown>)[];
  }

  /** The listed folder with what the caller may do in it (spec §3 Folder). */
  private async folderInfo(actor: Actor, scope: ResolvedScope, view: View, folder: FileEntryRow | null) {
    if (view !== 'folder' && view !== 'sql') return null;
    const grant = folder ? (await loadGrants(this.db, actor, [folder])).get(folder.id) : scope.rootActions;
    const permissions: string[] = allowedActions(actor, grant);
    // The SQL view always allows upload (spec §2/§6).
    if (view === 'sql' && !permissions.includes('files.update')) permissions.push('files.update');
    return { hash: folder?.hash ?? ROOT_HASH, name: folder?.name ?? '', permissions };
  }
}

/** Sort values leave the database as strings or numbers (bigint counts arrive as numbers already). */
function normaliseKey(value: unknown): string | number {
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString();
  return String(value);
}
