import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { FileEntryRow } from '../../db/types.js';
import { NotFound } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import { randomToken } from '../../lib/tokens.js';
import type { Disk } from '../../storage/disk.js';
import { userIdOf, type Actor } from '../access/actor.js';
import type { EntryAction } from '../access/actions.js';
import { requireEntry } from '../access/require.js';
import { newStorageLocation } from './files.js';
import type { QuotaService } from './quota.js';
import { adjustAncestorSizes, findById, payerOf, spaceOf, storageKey, type Executor } from './repository.js';
import type { SpaceLimits } from './space-limits.js';

/** A replaced file whose version moved on under the writer: nothing was written. */
export interface VersionConflict {
  conflict: true;
  current: FileEntryRow;
}

/**
 * New content for an existing file (a document save): same entry, new bytes,
 * new size and time. The new bytes go to a new storage key first; one
 * compare-and-set on the version (the sha256, which is also the ETag) swaps
 * them in, so a writer holding an old version never overwrites a newer one,
 * and the old bytes are deleted only after the swap commits.
 */
export class FileVersions {
  constructor(
    private readonly db: Executor,
    private readonly disk: Disk,
    private readonly quota: QuotaService,
    private readonly limits: SpaceLimits,
  ) {}

  /** A live file's bytes, for a caller who may do `action`, read whole up to `maxBytes`. */
  async readWhole(actor: Actor, hash: string, action: EntryAction, maxBytes: number, tooLarge: () => Error): Promise<{ entry: FileEntryRow; bytes: Buffer }> {
    const entry = await requireEntry(this.db, actor, action, hash);
    const key = storageKey(entry);
    if (entry.type === 'folder' || !key) throw NotFound('This file has no content to show.');
    if (Number(entry.file_size) > maxBytes) throw tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await this.disk.get(key)) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
    return { entry, bytes: Buffer.concat(chunks) };
  }

  /**
   * Replaces the content of `entry` if its version is still `expected`.
   * Growth is charged to the space's payer like an upload (reserved first).
   */
  async replace(actor: Actor, entry: FileEntryRow, expected: string, bytes: Buffer, mime: string): Promise<FileEntryRow | VersionConflict> {
    const location = newStorageLocation();
    const key = `${location.diskPrefix}/${location.fileName}`;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const growth = bytes.length - Number(entry.file_size);
    const reservation = `save-${randomToken(18)}`;
    if (growth > 0) {
      const payerId = payerOf(spaceOf(entry));
      await this.quota.reserve(
        { payerId, uploaderId: userIdOf(actor), available: await this.limits.availableTo(actor, payerId) },
        reservation,
        growth,
        'plain',
      );
    }
    try {
      await this.disk.put(key, Readable.from([bytes]));
      const outcome = await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('file_entries')
          .set({
            disk_prefix: location.diskPrefix,
            file_name: location.fileName,
            sha256,
            file_size: bytes.length,
            mime,
            updated_at: nowIso(),
          })
          .where('id', '=', entry.id)
          .where('deleted_at', 'is', null)
          .where(sql<boolean>`sha256 = ${expected}`)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return null;
        const row = (await findById(trx, entry.id))!;
        // The folders above count the new size from now on.
        await adjustAncestorSizes(trx, row.path, bytes.length - Number(entry.file_size), null);
        return row;
      });
      if (!outcome) {
        await this.disk.deletePrefix(location.diskPrefix).catch(() => undefined);
        const current = await findById(this.db, entry.id);
        if (!current || current.deleted_at) throw NotFound('This file or folder does not exist.');
        return { conflict: true, current };
      }
      // Committed: the old bytes (and the old thumbnail beside them) may go.
      if (entry.disk_prefix) await this.disk.deletePrefix(entry.disk_prefix).catch(() => undefined);
      return outcome;
    } catch (error) {
      await this.disk.deletePrefix(location.diskPrefix).catch(() => undefined);
      throw error;
    } finally {
      if (growth > 0) await this.quota.release(reservation);
    }
  }
}

export const isConflict = (value: FileEntryRow | VersionConflict): value is VersionConflict => 'conflict' in value;
