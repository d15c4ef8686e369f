import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.js';
import { lockUserRow } from '../../db/locks.js';
import type { Database, UploadReservationRow } from '../../db/types.js';
import { formatBytes } from '../../lib/format.js';
import { PayloadTooLarge } from '../../lib/errors.js';
import { addMs, nowIso } from '../../lib/time.js';
import { bytesCharged } from './repository.js';
import {
  allReservations,
  bytesTaken,
  deleteExpiredReservations,
  deleteReservation,
  insertReservation,
  liveReservationsByKind,
  markFinishing,
  oldestInFlightSince,
  reservationOwners,
  setReservationExpiry,
  unmarkFinishing,
} from './reservations.repository.js';
import { deleteVersions, oldestVersionsOf } from './versions.repository.js';

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
    /** Deletes the bytes of versions dropped to make room (after their rows' commit). */
    private readonly dropBytes: (prefixes: string[]) => Promise<void> = async () => undefined,
  ) {}

  /**
   * Reserves `bytes` against the quota of the payer of the destination space
   * (see repository.payerOf), on behalf of the uploader.
   *
   * The one rule for a write that replaces a file (a WebDAV PUT over it, an
   * upload answered "Replace", a document save): `charge.replacing` is the
   * replaced file's size, and only what the new content adds to it is
   * reserved. The old bytes become a version, which gives way to new content
   * (`settle` after the write), so they never stand in a replacement's way.
   */
  async reserve(
    charge: { payerId: number; uploaderId: number; available: number | null; replacing?: number },
    key: string,
    declared: number,
    kind: 'tus' | 'plain' | 'copy' | 's3',
  ): Promise<void> {
    const { payerId: userId, uploaderId, available } = charge;
    const bytes = Math.max(0, declared - (charge.replacing ?? 0));
    const now = nowIso();
    const dropped = await this.db.transaction().execute(async (trx) => {
      const dropped = await this.makeRoom(trx, userId, available, bytes, now);
      await insertReservation(trx, { key, user_id: userId, uploader_id: uploaderId, bytes, kind, created_at: now, expires_at: addMs(now, RESERVATION_TTL_MS) });
      return dropped;
    });
    await this.dropBytes(dropped);
  }

  /**
   * The check `reserve` makes, inside the transaction that commits bytes
   * already stored (a small WebDAV PUT: see UploadsService.storeWhole), so
   * that no reservation is written and released around it: the payer's row
   * is locked, and what they are charged plus what others reserve must leave
   * room for `bytes` (versions give way first). Throws the 413 otherwise,
   * which rolls the write back. Answers what to do after the commit (drop
   * the bytes of versions that gave way).
   */
  async admit(trx: Kysely<Database>, charge: { payerId: number; available: number | null }, bytes: number): Promise<() => Promise<void>> {
    if (charge.available === null) return async () => undefined;
    const dropped = await this.makeRoom(trx, charge.payerId, charge.available, bytes, nowIso());
    return () => this.dropBytes(dropped);
  }

  /** Inside a transaction: locks the payer and makes sure `bytes` more fit (dropping versions) or throws the 413; answers the dropped versions' prefixes. */
  private async makeRoom(trx: Kysely<Database>, userId: number, available: number | null, bytes: number, now: string): Promise<string[]> {
    await lockUserRow(trx, this.dialect, userId);
    if (available === null) return [];
    const taken = await this.taken(trx, userId, now);
    if (taken + bytes <= available) return [];
    // Versions give way to new content, oldest first; if even all of them would not do, none go (rollback).
    const room = await dropOldestVersions(trx, userId, taken + bytes - available);
    if (taken - room.freed + bytes > available) {
      const left = Math.max(0, available - taken + room.freed);
      throw PayloadTooLarge('There is not enough storage space for this upload: :left of :available left. Delete some files or upgrade your plan.', {
        left: formatBytes(left),
        available: formatBytes(available),
      });
    }
    return room.prefixes;
  }

  /**
   * After an overwrite kept the old bytes as a version: while the payer is
   * over their space, their oldest versions go (never a file's current
   * content), so versions never push anyone over quota. Answers the bytes freed.
   */
  async settle(payerId: number, available: number | null): Promise<number> {
    if (available === null) return 0;
    const { freed, prefixes } = await this.db.transaction().execute(async (trx) => {
      await lockUserRow(trx, this.dialect, payerId);
      // Stored bytes only: the caller's own reservation may still be held while it settles.
      const over = (await bytesCharged(trx, payerId)) - available;
      return over > 0 ? dropOldestVersions(trx, payerId, over) : { freed: 0, prefixes: [] };
    });
    await this.dropBytes(prefixes);
    return freed;
  }

  /** Bytes charged plus those reserved by uploads in flight: one statement (it runs before every upload). */
  private async taken(trx: Kysely<Database>, userId: number, now: string): Promise<number> {
    return bytesTaken(trx, userId, now);
  }

  /** The user an upload in flight belongs to (the uploader), or undefined when there is none. */
  async uploaderOf(key: string): Promise<number | undefined> {
    const row = await reservationOwners(this.db, key);
    return row ? (row.uploader_id ?? row.user_id) : undefined;
  }

  /**
   * Takes a finished tus upload for turning into an entry, once: of two
   * requests finishing the same upload, one gets true, the other false.
   */
  async claim(key: string, uploaderId: number): Promise<boolean> {
    return markFinishing(this.db, key, uploaderId);
  }

  /** Gives a claimed upload back (finishing failed before it became an entry), so it may be finished again. */
  async unclaim(key: string): Promise<void> {
    await unmarkFinishing(this.db, key);
  }

  /** Keeps the reservation of an upload that is still active until `expiresAt`. */
  async extend(key: string, expiresAt: string): Promise<void> {
    await setReservationExpiry(this.db, key, expiresAt);
  }

  async release(key: string): Promise<void> {
    await deleteReservation(this.db, key);
  }

  /** Every reservation, for reconciling them with the uploads that still exist. */
  list(): Promise<Pick<UploadReservationRow, 'key' | 'kind' | 'created_at'>[]> {
    return allReservations(this.db);
  }

  /** When the oldest plain upload, copy or finish still holding a reservation began (null: none). */
  async oldestInFlight(): Promise<string | null> {
    return oldestInFlightSince(this.db, nowIso());
  }

  /** Uploads holding a live reservation, by kind (metrics: tus and S3 uploads in progress). */
  async inProgressByKind(): Promise<Partial<Record<UploadReservationRow['kind'], number>>> {
    return liveReservationsByKind(this.db, nowIso());
  }

  /** Frees reservations of uploads abandoned past their expiry. */
  async releaseExpired(): Promise<number> {
    return deleteExpiredReservations(this.db, nowIso());
  }
}

/** Drops a payer's oldest versions until `need` bytes are freed or none are left (rows only; the bytes after the commit). */
async function dropOldestVersions(trx: Kysely<Database>, ownerId: number, need: number): Promise<{ freed: number; prefixes: string[] }> {
  let freed = 0;
  const prefixes: string[] = [];
  while (freed < need) {
    const batch = await oldestVersionsOf(trx, ownerId, 50);
    if (!batch.length) break;
    const ids: number[] = [];
    for (const version of batch) {
      if (freed >= need) break;
      ids.push(version.id);
      freed += Number(version.file_size);
    }
    prefixes.push(...(await deleteVersions(trx, ids)));
  }
  return { freed, prefixes };
}
