import fs from 'node:fs/promises';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { Database } from '../../../db/types.js';
import { chargedBytesByOwner } from '../../drive/repository.js';
import { adminIds, usersByIds } from '../../users/accounts.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Below this share of free space the dashboard warns. */
export const DISK_LOW_SHARE = 0.1;
/** Passwords a fresh or demo installation ships with: an admin still using one is warned about. */
const DEFAULT_PASSWORDS = ['admin', 'password', 'demo'];

export interface DashboardDeps {
  storageDir: string;
  version: string;
  mailConfigured(): Promise<boolean>;
  verifyPassword(hash: string | null, password: string): Promise<boolean>;
}

/** The admin dashboard: counts, space, activity over time, the largest users and what needs attention. */
export class AdminDashboardService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly deps: DashboardDeps,
  ) {}

  async report(days: number) {
    const count = async (query: SelectQueryBuilder<Database, 'users' | 'file_entries' | 'workspaces', object>) =>
      Number((await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    const files = await count(this.db.selectFrom('file_entries').where('type', '!=', 'folder'));
    // Summed from drive's charging rule, so the total is what the users together are charged.
    const used = Number(
      (
        await this.db
          .selectFrom(chargedBytesByOwner(this.db).as('charged'))
          .select((eb) => eb.fn.sum<number | string | null>('charged.bytes').as('b'))
          .executeTakeFirstOrThrow()
      ).b ?? 0,
    );
    const disk = await this.disk();
    const since = new Date(Date.now() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const perDay = new Map<string, { date: string; uploads: number; signups: number }>();
    for (let i = 0; i < days; i += 1) {
      const date = new Date(Date.parse(since) + i * DAY_MS).toISOString().slice(0, 10);
      perDay.set(date, { date, uploads: 0, signups: 0 });
    }
    // Bucketed here rather than by a dialect's date function (SQLite keeps text, PostgreSQL timestamptz).
    const uploads = await this.db.selectFrom('file_entries').select('created_at').where('type', '!=', 'folder').where('created_at', '>=', since).execute();
    for (const row of uploads) {
      const day = perDay.get(new Date(row.created_at).toISOString().slice(0, 10));
      if (day) day.uploads += 1;
    }
    const signups = await this.db.selectFrom('users').select('created_at').where('created_at', '>=', since).execute();
    for (const row of signups) {
      const day = perDay.get(new Date(row.created_at).toISOString().slice(0, 10));
      if (day) day.signups += 1;
    }
    const largest = await this.db
      .selectFrom(chargedBytesByOwner(this.db).as('charged'))
      .innerJoin('users', 'users.id', 'charged.owner_id')
      .select(['users.id', 'users.email', 'charged.bytes'])
      .orderBy('charged.bytes', 'desc')
      .orderBy('users.id')
      .limit(5)
      .execute();

    const warnings: ('mail_not_configured' | 'default_admin_password' | 'disk_almost_full')[] = [];
    if (!(await this.deps.mailConfigured())) warnings.push('mail_not_configured');
    if (await this.defaultAdminPassword()) warnings.push('default_admin_password');
    if (disk && disk.total > 0 && disk.free / disk.total < DISK_LOW_SHARE) warnings.push('disk_almost_full');
    return {
      users: await count(this.db.selectFrom('users')),
      files,
      workspaces: await count(this.db.selectFrom('workspaces')),
      space: { used, disk_free: disk?.free ?? null, disk_total: disk?.total ?? null },
      per_day: [...perDay.values()],
      largest_users: largest.map((row) => ({ id: row.id, email: row.email, bytes: Number(row.bytes) })),
      version: this.deps.version,
      warnings,
    };
  }

  private async disk(): Promise<{ free: number; total: number } | null> {
    try {
      await fs.mkdir(this.deps.storageDir, { recursive: true });
      const stats = await fs.statfs(this.deps.storageDir);
      return { free: stats.bavail * stats.bsize, total: stats.blocks * stats.bsize };
    } catch {
      return null;
    }
  }

  /** Whether an admin account still signs in with a well-known password (at most a few checks). */
  private async defaultAdminPassword(): Promise<boolean> {
    // Argon2 checks cost: the five oldest admins (the first account) and the five newest.
    const all = (await adminIds(this.db)).sort((a, b) => a - b);
    const ids = [...new Set([...all.slice(0, 5), ...all.slice(-5)])];
    if (!ids.length) return false;
    const rows = await usersByIds(this.db, ids);
    for (const row of rows) {
      for (const candidate of DEFAULT_PASSWORDS) if (await this.deps.verifyPassword(row.password, candidate)) return true;
    }
    return false;
  }
}
