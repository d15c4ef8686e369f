import type { Expression, SqlBool } from 'kysely';
import type { NameSearch } from '../../db/search.js';
import { ValidationError } from '../../lib/errors.js';
import { signedInUserId, type Actor } from '../access/actor.js';
import { loadGrants } from '../access/grants.repository.js';
import { allowedActions, decide } from '../access/policy.js';
import { requireFolder, ROOT_HASH } from '../access/require.js';
import { listFilter, ownedByOthers, type ListingView, type ResolvedScope } from '../access/scope.js';
import { Forbidden } from '../../lib/errors.js';
import type { FileEntryRow } from '../../db/types.js';
import { SQL_EXTENSIONS } from './kinds.js';
import {
  after,
  countListed,
  either,
  entryFromTuple,
  folderPageTuples,
  listedEntries,
  listingPage,
  PAGE_TUPLE_REST,
  sortKeys,
  walkedPage,
  type KeyedRow,
  type ListingEb,
  type PageEntry,
} from './listing.repository.js';
import { presentRows } from './present.js';
import { descendantsOf, spaceOf, type Executor, type Scope } from './repository.js';
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
    const nameCondition = from ? null : nameMatch && contentMatch ? either(nameMatch.condition, contentMatch) : (nameMatch?.condition ?? null);
    // `name`: the name's condition, left out by a walk that tests each name itself.
    const where = (eb: ListingEb, name: Expression<SqlBool> | null = nameCondition): Expression<SqlBool> => {
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

    // file_entries as the view's conditions need it: with its parent and the caller's star for trash and starred only.
    const joinedEntries = () => listedEntries(this.db, from, userId, view === 'trash' || view === 'starred');

    const useCursor = Boolean(query.cursor);
    const cursorAt = query.cursor ? after(keys, decodeCursor(query.cursor, signature, keys.length)) : null;
    const fromRows = (rows: KeyedRow[]): Read => {
      const page = rows.slice(0, query.perPage);
      return { page, more: rows.length > query.perPage, lastKeys: () => keys.map((_, i) => rows[page.length - 1]![`k${i}`]) };
    };
    let read: Read;
    // A broad name search's walk (db/search.ts) where an index yields the space's rows in the listing's
    // order, so that it stops at its page: a personal space by date. Elsewhere it would sort the space first.
    const walk = view === 'folder' && !space.workspaceId && (orderBy === 'updated_at' || orderBy === 'created_at') ? (nameMatch?.walk ?? null) : null;
    const walked = walk
      ? await walkedPage(
          this.db,
          userId,
          keys,
          walk,
          joinedEntries().where((eb) => where(eb, null)),
          { cursorAt, offset, limit },
        )
      : null;
    if (walked && walked.length === limit) {
      // A full page; a short one may only mean the walk stopped, so it is read again below.
      read = fromRows(walked);
    } else if (view === 'folder' && !searching && !cursorAt) {
      read = await this.plainFolderPage(userId, space, folder, orderBy, orderDir, offset, limit, query.perPage);
    } else {
      // Read from a name search's few matches (db/search.ts), the page's ids are picked first (listingPage).
      const rows = await listingPage(
        this.db,
        userId,
        keys,
        joinedEntries(),
        where,
        { cursorAt, offset, limit },
        { pickFirst: Boolean(from), ordered: Boolean(nameMatch?.ordered) },
      );
      read = fromRows(rows);
    }
    const { page, more, lastKeys } = read;
    const nextCursor = more && page.length ? encodeCursor(signature, lastKeys().map(normaliseKey)) : null;

    let total: number | null = null;
    // Counted only when the caller pages by number (see the schema's `page`).
    if (!useCursor && query.page !== undefined) {
      // Only the trash and starred conditions read the joined tables. Counting a big folder through
      // the joins costs ~3x the plain index count (7.8 vs 2.2 ms for 90k rows), and the count runs on
      // every first page, so other views count file_entries alone.
      total = await countListed(joinedEntries(), where);
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

  /** A folder's page with no search, filter or cursor: its statement is compiled once per shape (see folderPageTuples). */
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
    const values = { userId, ownerId: space.ownerId, workspaceId: space.workspaceId ?? null, folderId: folder?.id ?? null, offset };
    const tuples = await folderPageTuples(this.db, values, { orderBy, orderDir, inFolder: folder !== null, inWorkspace: Boolean(space.workspaceId), limit });
    const page = tuples.slice(0, perPage).map(entryFromTuple);
    return { page, more: tuples.length > perPage, lastKeys: () => tuples[page.length - 1]!.slice(PAGE_TUPLE_REST) };
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
