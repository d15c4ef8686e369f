import { sql, type Kysely } from 'kysely';
import type { Database, ShareLinkRow } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import type { LinkEventKind } from './schemas.js';

type Db = Kysely<Database>;

export type LinkWithEntry = ShareLinkRow & {
  entry_hash: string;
  entry_owner_id: number;
  entry_workspace_id: number | null;
  entry_type: string;
  entry_name: string;
  entry_deleted_at: string | null;
  entry_path: string;
};

export interface LinkValues {
  allow_download: number;
  file_drop: number;
  notify_owner: number;
  password_hash: string | null;
  expires_at: string | null;
  max_downloads: number | null;
}

export const EVENTS_PER_PAGE = 50;

/** The rows behind sharing by link; who may touch them is the access policy's answer. */
export class ShareLinksRepository {
  constructor(private readonly db: Db) {}

  private withEntry() {
    return this.db
      .selectFrom('share_links')
      .innerJoin('file_entries', 'file_entries.id', 'share_links.entry_id')
      .selectAll('share_links')
      .select([
        'file_entries.hash as entry_hash',
        'file_entries.owner_id as entry_owner_id',
        'file_entries.workspace_id as entry_workspace_id',
        'file_entries.type as entry_type',
        'file_entries.name as entry_name',
        'file_entries.deleted_at as entry_deleted_at',
        'file_entries.path as entry_path',
      ]);
  }

  byToken(token: string): Promise<LinkWithEntry | undefined> {
    return this.withEntry().where('share_links.token', '=', token).executeTakeFirst();
  }

  byId(id: number): Promise<LinkWithEntry | undefined> {
    return this.withEntry().where('share_links.id', '=', id).executeTakeFirst();
  }

  forEntry(entryId: number): Promise<LinkWithEntry[]> {
    return this.withEntry().where('share_links.entry_id', '=', entryId).orderBy('share_links.id').execute();
  }

  async create(values: LinkValues & { token: string; entry_id: number; created_by: number }): Promise<number> {
    const now = nowIso();
    const row = await this.db
      .insertInto('share_links')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: Partial<LinkValues>): Promise<void> {
    await this.db
      .updateTable('share_links')
      .set({ ...values, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('share_links').where('id', '=', id).execute();
  }

  async deleteForEntry(entryId: number): Promise<number> {
    const result = await this.db.deleteFrom('share_links').where('entry_id', '=', entryId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /**
   * Takes one download from the link's allowance in a single conditional
   * UPDATE: of two requests racing for the last download, the database lets
   * exactly one through (true) and the other sees the limit reached (false).
   */
  async takeDownload(id: number): Promise<boolean> {
    const result = await this.db
      .updateTable('share_links')
      .set({ download_count: sql<number>`download_count + 1` })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('max_downloads', 'is', null), eb('download_count', '<', eb.ref('max_downloads'))]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async countView(id: number): Promise<void> {
    await this.db
      .updateTable('share_links')
      .set({ view_count: sql<number>`view_count + 1` })
      .where('id', '=', id)
      .execute();
  }

  /** Names and hashes of these entries, in the order given (a path's crumbs). */
  async crumbs(ids: number[]): Promise<{ hash: string; name: string }[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('file_entries').select(['id', 'hash', 'name']).where('id', 'in', ids).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  }

  async addEvent(linkId: number, kind: LinkEventKind, entryName: string | null, address: string | null): Promise<void> {
    await this.db.insertInto('share_link_events').values({ link_id: linkId, kind, entry_name: entryName, address, created_at: nowIso() }).execute();
  }

  async events(linkId: number, page: number) {
    const [rows, counted] = await Promise.all([
      this.db
        .selectFrom('share_link_events')
        .select(['id', 'kind', 'entry_name', 'address', 'created_at'])
        .where('link_id', '=', linkId)
        .orderBy('id', 'desc')
        .limit(EVENTS_PER_PAGE)
        .offset((page - 1) * EVENTS_PER_PAGE)
        .execute(),
      this.db
        .selectFrom('share_link_events')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('link_id', '=', linkId)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(counted.count) };
  }
}
