import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { Actor } from '../access/actor.js';
import { requireEntry } from '../access/require.js';
import { requireWorkspace } from '../access/require-workspace.js';
import type { ActivityRepository } from './repository.js';
import { ACTIVITY_PAGE } from './repository.js';

export interface ActivityDeps {
  /** A user's display name (null: the account is gone). */
  userName(userId: number): Promise<string | null>;
  /** The site's `activity.keep_days`. */
  keepDays(): Promise<number>;
}

type Row = Awaited<ReturnType<ActivityRepository['forEntry']>>[number];

const DAY_MS = 86_400_000;

/** Reading activity (who may: the access policy) and pruning it. */
export class ActivityService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repo: ActivityRepository,
    private readonly deps: ActivityDeps,
  ) {}

  /** An entry's activity, for whoever may view the entry (in the trash too). */
  async forEntry(actor: Actor, hash: string, before?: number) {
    const entry = await requireEntry(this.db, actor, 'files.view', hash, { trash: 'any' });
    return this.page(await this.repo.forEntry(entry.id, before));
  }

  /** A workspace's activity, for its admins. */
  async forWorkspace(actor: Actor, workspaceId: number, before?: number) {
    await requireWorkspace(this.db, actor, 'workspace.activity', workspaceId);
    return this.page(await this.repo.forWorkspace(workspaceId, before));
  }

  /** Records older than the setting go (the scheduler runs this daily); how many went. */
  async prune(now = new Date()): Promise<number> {
    const days = await this.deps.keepDays();
    return this.repo.pruneBefore(new Date(now.getTime() - days * DAY_MS).toISOString());
  }

  private async page(rows: Row[]) {
    const names = new Map<number, string | null>();
    for (const id of new Set(rows.flatMap((row) => (row.actor_id === null ? [] : [row.actor_id])))) names.set(id, await this.deps.userName(id));
    const data = rows.map((row) => ({
      id: row.id,
      entry_id: row.entry_id,
      entry_name: row.entry_name,
      entry_type: row.entry_type,
      action: row.action,
      actor: { kind: row.actor_kind, id: row.actor_id, name: row.actor_id === null ? null : (names.get(row.actor_id) ?? null) },
      address: row.address,
      details: row.details ? (JSON.parse(row.details) as Record<string, string | number | null>) : {},
      created_at: new Date(row.created_at).toISOString(),
    }));
    return { data, next_cursor: rows.length === ACTIVITY_PAGE ? String(rows[rows.length - 1]!.id) : null };
  }
}
