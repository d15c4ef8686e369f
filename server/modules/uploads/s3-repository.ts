import type { Kysely } from 'kysely';
import type { Database, S3UploadRow, S3UploadsTable } from '../../db/types.js';
import { addMs, nowIso } from '../../lib/time.js';

/** An upload untouched for this long is abandoned: housekeeping aborts it (spec §4). */
export const S3_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;

export type NewS3Upload = Omit<S3UploadsTable, 'created_at' | 'expires_at' | 'state'>;

/** The stored records of direct uploads in progress. */
export class S3UploadsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(upload: NewS3Upload): Promise<void> {
    const now = nowIso();
    await this.db
      .insertInto('s3_uploads')
      .values({ ...upload, state: 'open', created_at: now, expires_at: addMs(now, S3_UPLOAD_TTL_MS) })
      .execute();
  }

  /** The upload if `userId` is its uploader. */
  async findOwn(id: string, userId: number): Promise<S3UploadRow | undefined> {
    const row = await this.db.selectFrom('s3_uploads').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return row ? { ...row, size: Number(row.size), part_size: row.part_size === null ? null : Number(row.part_size) } : undefined;
  }

  /** Moves an upload from one state to the next, once: of two racing calls only one gets true. */
  async transition(id: string, from: S3UploadRow['state'], to: S3UploadRow['state']): Promise<boolean> {
    const result = await this.db.updateTable('s3_uploads').set({ state: to }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Activity pushes the abandonment deadline back. */
  async touch(id: string): Promise<string> {
    const expiresAt = addMs(nowIso(), S3_UPLOAD_TTL_MS);
    await this.db.updateTable('s3_uploads').set({ expires_at: expiresAt }).where('id', '=', id).execute();
    return expiresAt;
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('s3_uploads').where('id', '=', id).execute();
  }

  /** Uploads whose deadline has passed. */
  expired(limit = 500): Promise<Pick<S3UploadRow, 'id' | 'kind' | 'file_name' | 's3_upload_id'>[]> {
    return this.db
      .selectFrom('s3_uploads')
      .select(['id', 'kind', 'file_name', 's3_upload_id'])
      .where('expires_at', '<=', nowIso())
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }
}
