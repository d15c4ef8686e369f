import type { Kysely } from 'kysely';
import { timestampType } from './schema-helpers.js';

/**
 * Direct uploads to S3 in progress (spec §7 "Upload calls", §4 resumable
 * multipart): the stored record that lets a browser resume a multipart upload
 * after a reload, binds each upload to its uploader, and says where its bytes
 * will become a file entry. Its id is also its quota reservation's key and
 * its objects' folder on the disk.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('s3_uploads')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', 'integer')
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('relative_path', 'varchar(1024)')
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('mime', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('file_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('part_size', 'bigint')
    .addColumn('s3_upload_id', 'varchar(1024)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('s3_uploads_expires_index').on('s3_uploads').column('expires_at').execute();
  await db.schema.createIndex('s3_uploads_user_index').on('s3_uploads').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('s3_uploads').execute();
}
