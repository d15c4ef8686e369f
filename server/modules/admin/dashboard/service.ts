import fs from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { adminIds, usersByIds } from '../../users/accounts.repository.js';
import { createdSince, largestUsers, totals } from './repository.js';

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
    const { users, files, workspaces, used, versions } = await totals(this.db);
    const disk = await this.disk();
    const since = new Date(Date.now() - (days - 1) * DAY_MS).toISOString().slice(0, 10);
    const perDay = new Map<string, { date: string; uploads: number; signups: number }>();
    for (let i = 0; i < days; i += 1) {
      const date = new Date(Date.parse(since) + i * DAY_MS).toISOString().slice(0, 10);
      perDay.set(date, { date, uploads: 0, signups: 0 });
    }
    // Bucketed here rather than by a dialect's date function (SQLite keeps text, PostgreSQL timestamptz).
    const created = await createdSince(this.db, since);
    const dayOf = (at: string) => perDay.get(new Date(at).toISOString().slice(0, 10));
    for (const at of created.uploads) {
      const day = dayOf(at);
      if (day) day.uploads += 1;
    }
    for (const at of created.signups) {
      const day = dayOf(at);
      if (day) day.signups += 1;
    }
    const largest = await largestUsers(this.db, 5);

    const warnings: ('mail_not_configured' | 'default_admin_password' | 'disk_almost_full')[] = [];
    if (!(await this.deps.mailConfigured())) warnings.push('mail_not_configured');
    if (await this.defaultAdminPassword()) warnings.push('default_admin_password');
    if (disk && disk.total > 0 && disk.free / disk.total < DISK_LOW_SHARE) warnings.push('disk_almost_full');
    return {
      users,
      files,
      workspaces,
      space: { used, versions, disk_free: disk?.free ?? null, disk_total: disk?.total ?? null },
      per_day: [...perDay.values()],
      largest_users: largest,
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
