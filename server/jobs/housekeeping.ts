import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { nowIso } from '../lib/time.js';
import type { StoreChecks } from './store-checks.js';
import { tidyStore } from './tidy-store.js';

export interface HousekeepingResult {
  sessions: number;
  userTokens: number;
}

/** Removes what can no longer be used: expired sessions and spent or expired one-time tokens. */
export async function housekeep(db: Kysely<Database>): Promise<HousekeepingResult> {
  const now = nowIso();
  const sessions = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  const userTokens = await db
    .deleteFrom('user_tokens')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  return { sessions: Number(sessions.numDeletedRows), userTokens: Number(userTokens.numDeletedRows) };
}

export interface UploadExpiry {
  tus: { cleanUpExpired(): Promise<number> };
  quota: { releaseExpired(): Promise<number> };
}

/** Abandoned resumable uploads (over 24 h) lose their bytes and their quota reservations. */
export async function expireUploads(deps: UploadExpiry): Promise<{ uploads: number; reservations: number }> {
  const uploads = await deps.tus.cleanUpExpired();
  const reservations = await deps.quota.releaseExpired();
  return { uploads, reservations };
}

export const HOUSEKEEPING_INTERVAL_MS = 60 * 60 * 1000;
/** Trash is purged within this long after its time (never before it); versions are thinned as often. */
export const RETENTION_INTERVAL_MS = 15 * 60 * 1000;
/** Activity records past the site's keep days are pruned once a day. */
export const ACTIVITY_PRUNE_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** Direct uploads to S3 untouched for 24 h: aborted in the store and their space released (spec §4). */
export interface DirectUploadExpiry {
  s3: { expireAbandoned(): Promise<number> };
}

/**
 * One housekeeping pass: sessions and tokens, expired uploads, and the
 * store's leftovers (tidy-store.ts). It runs as the `housekeeping` job every
 * hour (main.ts): in-process in the embedded setup, once across all
 * processes on the shared queue in scale-out mode.
 */
export async function runHousekeeping(
  deps: UploadExpiry & DirectUploadExpiry & { db: Kysely<Database>; checks: StoreChecks },
  log: { warn(obj: object, msg: string): void },
) {
  await Promise.all([
    housekeep(deps.db),
    deps.s3
      .expireAbandoned()
      .then(() => expireUploads(deps))
      .then(() => tidyStore(deps.checks, 'running', log)),
  ]);
}
