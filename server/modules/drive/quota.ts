import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.js';
import { lockUserRow } from '../../db/locks.js';
import type { Database, UploadReservationRow } from '../../db/types.js';
import { formatBytes } from '../../lib/format.js';
import { PayloadTooLarge } from '../../lib/errors.js';
import { addMs, nowIso } from '../../lib/time.js';
import { bytesCharged } from './repository.js';

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

  /**
   * Reserves `bytes` against the quota of the payer of the destination space
   * (see repository.payerOf), on behalf of the uploader.
   */
  async reserve(
    charge: { payerId: number; uploaderId: number; available: number | null },
    key: string,
    bytes: number,
    kind: 'tus' | 'plain' | 'copy' | 's3',
  ): Promise<void> {
    const { payerId: userId, uploaderId, available } = charge;
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await lockUserRow(trx, this.dialect, userId);
      if (available !== null) {
        const used = await bytesCharged(trx, userId);
        const reserved = await trx
          .selectFrom('upload_reservations')
          .select((eb) => eb.fn.sum<number | string | null>('bytes').as('bytes'))
          .where('user_id', '=', userId)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        const taken = used + Number(reserved?.bytes ?? 0);
        if (taken + bytes > available) {
          const left = Math.max(0, available - taken);
          throw PayloadTooLarge('There is not enough storage space for this upload: :left of :available left. Delete some files or upgrade your plan.', {
            left: formatBytes(left),
            available: formatBytes(available),
          });
        }
      }
      await trx
        .insertInto('upload_reservations')
        .values({ key, user_id: userId, uploader_id: uploaderId, bytes, kind, created_at: now, expires_at: addMs(now, RESERVATION_TTL_MS) })
        .execute();
    });
  }

  /** The user an upload in flight belongs to (the uploader), or undefined when there is none. */
  async uploaderOf(key: string): Promise<number | undefined> {
    const row = await this.db.selectFrom('upload_reservations').select(['user_id', 'uploader_id']).where('key', '=', key).executeTakeFirst();
    return row ? (row.uploader_id ?? row.user_id) : undefined;
  }

  /**
   * Takes a finished tus upload for turning into an entry, once: of two
   * requests finishing the same upload, one gets true, the other false.
   */
  async claim(key: string, uploaderId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_reservations')
      .set({ kind: 'finishing' })
      .where('key', '=', key)
      .where('kind', '=', 'tus')
      .where((eb) => eb.or([eb('uploader_id', '=', uploaderId), eb.and([eb('uploader_id', 'is', null), eb('user_id', '=', uploaderId)])]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a claimed upload back (finishing failed before it became an entry), so it may be finished again. */
  async unclaim(key: string): Promise<void> {
    await this.db.updateTable('upload_reservations').set({ kind: 'tus' }).where('key', '=', key).where('kind', '=', 'finishing').execute();
  }

  /** Keeps the reservation of an upload that is still active until `expiresAt`. */
  async extend(key: string, expiresAt: string): Promise<void> {
    await this.db.updateTable('upload_reservations').set({ expires_at: expiresAt }).where('key', '=', key).execute();
  }

  async release(key: string): Promise<void> {
    await this.db.deleteFrom('upload_reservations').where('key', '=', key).execute();
  }

  /** Every reservation, for reconciling them with the uploads that still exist. */
  list(): Promise<Pick<UploadReservationRow, 'key' | 'kind' | 'created_at'>[]> {
    return this.db.selectFrom('upload_reservations').select(['key', 'kind', 'created_at']).orderBy('created_at').execute();
  }

  /** When the oldest plain upload, copy or finish still holding a reservation began (null: none). */
  async oldestInFlight(): Promise<string | null> {
    const row = await this.db
      .selectFrom('upload_reservations')
      .select((eb) => eb.fn.min('created_at').as('oldest'))
      .where('kind', 'in', ['plain', 'copy', 'finishing'])
      .where('expires_at', '>', nowIso())
      .executeTakeFirst();
    return row?.oldest ? String(row.oldest) : null;
  }

  /** Uploads holding a live reservation, by kind (metrics: tus and S3 uploads in progress). */
  async inProgressByKind(): Promise<Partial<Record<UploadReservationRow['kind'], number>>> {
    const rows = await this.db
      .selectFrom('upload_reservations')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('expires_at', '>', nowIso())
      .groupBy('kind')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.kind, Number(row.n)]));
  }

  /** Frees reservations of uploads abandoned past their expiry. */
  async releaseExpired(): Promise<number> {
    const result = await this.db.deleteFrom('upload_reservations').where('expires_at', '<=', nowIso()).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
