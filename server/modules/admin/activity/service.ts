import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { parseJson } from '../../../lib/json.js';
import { nowIso } from '../../../lib/time.js';
import { pageOf, type Page } from '../paging.js';
import { activityPage, insertActivity } from './repository.js';

/** Who did it and from where: every admin service call takes one. */
export interface AdminCaller {
  userId: number;
  email: string;
  ip: string | null;
}

export interface ActivityEntry {
  action: string;
  subjectType: string;
  subjectId?: string | number | null;
  subjectLabel?: string | null;
  /** What changed; never secrets (settings record the keys, not the values). */
  details?: Record<string, unknown>;
}

export interface ActivityRow {
  id: number;
  actor_id: number | null;
  actor_label: string;
  action: string;
  subject_type: string;
  subject_id: string | null;
  subject_label: string | null;
  details: Record<string, unknown>;
  ip_address: string | null;
  created_at: string;
}

/** The log of admin actions (who, what, when, on what), kept in the database. */
export class AdminActivity {
  constructor(private readonly db: Kysely<Database>) {}

  async record(caller: AdminCaller, entry: ActivityEntry, executor: Kysely<Database> = this.db): Promise<void> {
    await insertActivity(executor, {
      actor_id: caller.userId,
      actor_label: caller.email,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId === undefined || entry.subjectId === null ? null : String(entry.subjectId),
      subject_label: entry.subjectLabel?.slice(0, 320) ?? null,
      details: JSON.stringify(entry.details ?? {}),
      ip_address: caller.ip,
      created_at: nowIso(),
    });
  }

  async list(query: { page: number; perPage: number; query?: string | undefined; action?: string | undefined }): Promise<Page<ActivityRow>> {
    const { rows, total } = await activityPage(this.db, query);
    return pageOf(
      rows.map((row) => ({ ...row, details: parseJson<Record<string, unknown>>(row.details, {}) })),
      query,
      total,
    );
  }
}
