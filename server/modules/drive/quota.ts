import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.js';
import { lockUserRow } from '../../db/locks.js';
import type { Database } from '../../db/types.js';
import { formatBytes } from '../../lib/format.js';
import { PayloadTooLarge } from '../../lib/errors.js';
import { addMs, nowIso } from '../../lib/time.js';

/** A reservation outlives an idle upload by the tus expiry; then housekeeping frees it. */
export const RESERVATION_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Storage quota checked and reserved atomically when an upload starts (from
 * its declared length) and settled from the bytes actually stored: twenty
 * parallel uploads that each fit cannot together overshoot.
 */
export class QuotaService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async reserve(userId: number, available: number | null, key: string, bytes: number, kind: 'tus' | 'plain' | 'copy'): Promise<void> {
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await lockUserRow(trx, this.dialect, userId);
      if (available !== null) {
        const used = await trx
          .selectFrom('file_entries')
          .select((eb) => eb.fn.sum<number | string | null>('file_size').as('bytes'))
          .where('owner_id', '=', userId)
          .where('type', '!=', 'folder')
          .executeTakeFirst();
        const reserved = await trx
          .selectFrom('upload_reservations')
          .select((eb) => eb.fn.sum<number | string | null>('bytes').as('bytes'))
          .where('user_id', '=', userId)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        const taken = Number(used?.bytes ?? 0) + Number(reserved?.bytes ?? 0);
        if (taken + bytes > available) {
          const left = Math.max(0, available - taken);
          throw PayloadTooLarge(
            'There is not enough storage space for this upload: :left of :available left. Delete some files or upgrade your plan.',
            { left: formatBytes(left), available: formatBytes(available) },
          );
        }
      }
      await trx
        .insertInto('upload_reservations')
        .values({ key, user_id: userId, bytes, kind, created_at: now, expires_at: addMs(now, RESERVATION_TTL_MS) })
        .execute();
    });
  }

  ownerOf(key: string): Promise<{ user_id: number; bytes: number } | undefined> {
    return this.db.selectFrom('upload_reservations').select(['user_id', 'bytes']).where('key', '=', key).executeTakeFirst();
  }

  async release(key: string): Promise<void> {
    await this.db.deleteFrom('upload_reservations').where('key', '=', key).execute();
  }

  /** Frees reservations of uploads abandoned past their expiry. */
  async releaseExpired(): Promise<number> {
    const result = await this.db.deleteFrom('upload_reservations').where('expires_at', '<=', nowIso()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
