import type { Insertable, Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { Database, UploadReservationRow } from '../../db/types.js';
import { chargedTotal } from './repository.js';

/** SQL of upload_reservations: the bytes uploads in flight hold against their payer's quota (quota.ts decides). */

type Db = Kysely<Database>;

// What a payer's stored bytes and live reservations add up to: asked in the transaction of every new file. Compiled once.
const takenNow = prepared(
  () => 'one',
  (db, { userId, now }: { userId: number; now: string }) =>
    db.selectNoFrom((eb) => [
      chargedTotal(db, userId).as('used'),
      eb
        .selectFrom('upload_reservations')
        .select((inner) => inner.fn.sum<number | string | null>('bytes').as('bytes'))
        .where('user_id', '=', userId)
        .where('expires_at', '>', now)
        .as('reserved'),
    ]),
);

/** Bytes charged to `userId` plus those reserved by their uploads live at `now`: one statement. */
export async function bytesTaken(db: Db, userId: number, now: string): Promise<number> {
  const [row] = await takenNow(db, { userId, now }, null);
  return Number(row?.used ?? 0) + Number(row?.reserved ?? 0);
}

export async function insertReservation(db: Db, reservation: Insertable<Database['upload_reservations']>): Promise<void> {
  await db.insertInto('upload_reservations').values(reservation).execute();
}

export function reservationOwners(db: Db, key: string): Promise<Pick<UploadReservationRow, 'user_id' | 'uploader_id'> | undefined> {
  return db.selectFrom('upload_reservations').select(['user_id', 'uploader_id']).where('key', '=', key).executeTakeFirst();
}

/** Marks a finished tus upload of `uploaderId` as being finished; answers whether this call did (one of two racing). */
export async function markFinishing(db: Db, key: string, uploaderId: number): Promise<boolean> {
  const result = await db
    .updateTable('upload_reservations')
    .set({ kind: 'finishing' })
    .where('key', '=', key)
    .where('kind', '=', 'tus')
    .where((eb) => eb.or([eb('uploader_id', '=', uploaderId), eb.and([eb('uploader_id', 'is', null), eb('user_id', '=', uploaderId)])]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unmarkFinishing(db: Db, key: string): Promise<void> {
  await db.updateTable('upload_reservations').set({ kind: 'tus' }).where('key', '=', key).where('kind', '=', 'finishing').execute();
}

export async function setReservationExpiry(db: Db, key: string, expiresAt: string): Promise<void> {
  await db.updateTable('upload_reservations').set({ expires_at: expiresAt }).where('key', '=', key).execute();
}

export async function deleteReservation(db: Db, key: string): Promise<void> {
  await db.deleteFrom('upload_reservations').where('key', '=', key).execute();
}

export function allReservations(db: Db): Promise<Pick<UploadReservationRow, 'key' | 'kind' | 'created_at'>[]> {
  return db.selectFrom('upload_reservations').select(['key', 'kind', 'created_at']).orderBy('created_at').execute();
}

/** When the oldest plain upload, copy or finish live at `now` began (null: none). */
export async function oldestInFlightSince(db: Db, now: string): Promise<string | null> {
  const row = await db
    .selectFrom('upload_reservations')
    .select((eb) => eb.fn.min('created_at').as('oldest'))
    .where('kind', 'in', ['plain', 'copy', 'finishing'])
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.oldest ? String(row.oldest) : null;
}

/** Reservations live at `now`, counted by kind. */
export async function liveReservationsByKind(db: Db, now: string): Promise<Partial<Record<UploadReservationRow['kind'], number>>> {
  const rows = await db
    .selectFrom('upload_reservations')
    .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
    .where('expires_at', '>', now)
    .groupBy('kind')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.n)]));
}

/** Deletes the reservations expired by `now`; answers how many. */
export async function deleteExpiredReservations(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('upload_reservations').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
