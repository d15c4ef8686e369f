import type { Kysely } from 'kysely';
import type { Database, FileEntryRow } from '../../../db/types.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import { contains, pageOf } from '../paging.js';

export const FILE_SORTS = ['name', 'file_size', 'created_at', 'type'] as const;

export interface FileListQuery {
  page: number;
  perPage: number;
  query?: string | undefined;
  orderBy?: (typeof FILE_SORTS)[number] | undefined;
  orderDir: 'asc' | 'desc';
  type?: string | undefined;
  ownerId?: number | undefined;
  workspaceId?: number | undefined;
  trashed?: boolean | undefined;
}

export interface AdminFilesDeps {
  deleteForeverByIds(trx: Kysely<Database>, ids: number[]): Promise<{ entries: FileEntryRow[]; prefixes: string[] }>;
  purgeBytes(prefixes: string[]): Promise<void>;
  fileForSupport(id: number): Promise<{ entry: FileEntryRow; key: string }>;
}

/** Every entry in the system: listed, filtered and searched; deleted forever; downloaded for support (recorded). */
export class AdminFilesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly activity: AdminActivity,
    private readonly deps: AdminFilesDeps,
  ) {}

  async list(query: FileListQuery) {
    let base = this.db
      .selectFrom('file_entries')
      .innerJoin('users as owner', 'owner.id', 'file_entries.owner_id')
      .leftJoin('workspaces', 'workspaces.id', 'file_entries.workspace_id');
    if (query.query) {
      const text = query.query;
      base = base.where((eb) => eb.or([contains('file_entries.name', text), contains('owner.email', text)]));
    }
    if (query.type) base = base.where('file_entries.type', '=', query.type);
    if (query.ownerId) base = base.where('file_entries.owner_id', '=', query.ownerId);
    if (query.workspaceId) base = base.where('file_entries.workspace_id', '=', query.workspaceId);
    if (query.trashed !== undefined) base = base.where('file_entries.deleted_at', query.trashed ? 'is not' : 'is', null);
    const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    const column = `file_entries.${query.orderBy ?? 'created_at'}` as const;
    const rows = await base
      .select([
        'file_entries.id',
        'file_entries.hash',
        'file_entries.name',
        'file_entries.type',
        'file_entries.mime',
        'file_entries.file_size',
        'file_entries.created_at',
        'file_entries.deleted_at',
        'file_entries.owner_id',
        'owner.email as owner_email',
        'file_entries.workspace_id',
        'workspaces.name as workspace_name',
      ])
      .orderBy(column, query.orderDir)
      .orderBy('file_entries.id', query.orderDir)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return pageOf(
      rows.map((row) => ({ ...row, file_size: Number(row.file_size) })),
      query,
      Number(total),
    );
  }

  async delete(caller: AdminCaller, ids: number[]): Promise<number> {
    const { entries, prefixes } = await this.db.transaction().execute(async (trx) => {
      const removed = await this.deps.deleteForeverByIds(trx, ids);
      for (const entry of removed.entries) {
        await this.activity.record(
          caller,
          { action: 'file.deleted', subjectType: 'file', subjectId: entry.id, subjectLabel: entry.name, details: { owner_id: entry.owner_id } },
          trx,
        );
      }
      return removed;
    });
    await this.deps.purgeBytes(prefixes);
    return entries.length;
  }

  /** The file to send; the download is recorded before a byte goes out. */
  async download(caller: AdminCaller, id: number) {
    const found = await this.deps.fileForSupport(id);
    await this.activity.record(caller, {
      action: 'file.downloaded',
      subjectType: 'file',
      subjectId: id,
      subjectLabel: found.entry.name,
      details: { owner_id: found.entry.owner_id },
    });
    return found;
  }
}
