import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { NotFound } from '../../../lib/errors.js';
import type { AdminActivity, AdminCaller } from '../activity/service.js';
import { contains, pageOf } from '../paging.js';

export const WORKSPACE_NOT_FOUND = 'This workspace does not exist.';

export interface AdminWorkspacesDeps {
  /** Inside the transaction: the workspace's entries go to its owner's trash, then the workspace goes. */
  deleteWorkspace(trx: Kysely<Database>, id: number): Promise<void>;
}

/** Every workspace with its owner and member count; deleting one as its owner would. */
export class AdminWorkspacesService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly activity: AdminActivity,
    private readonly deps: AdminWorkspacesDeps,
  ) {}

  async list(query: { page: number; perPage: number; query?: string | undefined; orderDir: 'asc' | 'desc'; orderBy?: 'name' | 'created_at' | undefined }) {
    let base = this.db.selectFrom('workspaces').innerJoin('users as owner', 'owner.id', 'workspaces.owner_id');
    if (query.query) {
      const text = query.query;
      base = base.where((eb) => eb.or([contains('workspaces.name', text), contains('owner.email', text)]));
    }
    const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .select((eb) => [
        'workspaces.id',
        'workspaces.name',
        'workspaces.created_at',
        'workspaces.owner_id',
        'owner.email as owner_email',
        eb
          .selectFrom('workspace_members')
          .select((s) => s.fn.countAll<number | string>().as('n'))
          .whereRef('workspace_members.workspace_id', '=', 'workspaces.id')
          .as('members_count'),
      ])
      .orderBy(query.orderBy === 'name' ? 'workspaces.name' : 'workspaces.created_at', query.orderDir)
      .orderBy('workspaces.id', query.orderDir)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return pageOf(
      rows.map((row) => ({ ...row, members_count: Number(row.members_count ?? 0) })),
      query,
      Number(total),
    );
  }

  async delete(caller: AdminCaller, id: number): Promise<void> {
    const workspace = await this.db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
    if (!workspace) throw NotFound(WORKSPACE_NOT_FOUND);
    await this.db.transaction().execute(async (trx) => {
      await this.deps.deleteWorkspace(trx, id);
      await this.activity.record(caller, { action: 'workspace.deleted', subjectType: 'workspace', subjectId: id, subjectLabel: workspace.name }, trx);
    });
  }
}
