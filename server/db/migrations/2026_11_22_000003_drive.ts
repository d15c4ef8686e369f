import { sql, type Kysely } from 'kysely';
import { isPostgres, timestampType, withId } from './schema-helpers.js';

/**
 * The drive: files and folders in one tree per owner (and, later, workspace),
 * with a materialised `path` of ids ("12/40/41", the entry's own id last) for
 * subtree moves, trash and size roll-ups, plus stars. Name search gets a
 * dialect-specific index: an FTS5 trigram table kept in sync by triggers on
 * SQLite, a pg_trgm GIN index on PostgreSQL (read through `db/search.ts`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const pg = isPostgres(db);
  // Byte order for `path`, so that range scans over a subtree use the index on both dialects.
  const pathType = pg ? sql`text collate "C"` : sql`text`;

  await withId(db, db.schema.createTable('file_entries'))
    .addColumn('hash', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('mime', 'varchar(255)')
    .addColumn('extension', 'varchar(64)')
    .addColumn('file_size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('parent_id', 'integer', (c) => c.references('file_entries.id').onDelete('cascade'))
    .addColumn('path', pathType, (c) => c.notNull().defaultTo(''))
    .addColumn('disk_prefix', 'varchar(64)')
    .addColumn('file_name', 'varchar(64)')
    .addColumn('sha256', 'varchar(64)')
    .addColumn('thumbnail', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('workspace_id', 'integer')
    .addColumn('deleted_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  // Folder listings, the recent/SQL/trash views and subtree scans.
  await db.schema.createIndex('file_entries_owner_parent_index').on('file_entries').columns(['owner_id', 'parent_id', 'deleted_at']).execute();
  await db.schema.createIndex('file_entries_owner_created_index').on('file_entries').columns(['owner_id', 'created_at']).execute();
  await db.schema.createIndex('file_entries_owner_updated_index').on('file_entries').columns(['owner_id', 'updated_at']).execute();
  await db.schema.createIndex('file_entries_owner_deleted_index').on('file_entries').columns(['owner_id', 'deleted_at']).execute();
  await db.schema.createIndex('file_entries_owner_extension_index').on('file_entries').columns(['owner_id', 'extension']).execute();
  await db.schema.createIndex('file_entries_parent_index').on('file_entries').column('parent_id').execute();
  await db.schema.createIndex('file_entries_path_index').on('file_entries').column('path').execute();

  await db.schema
    .createTable('file_entry_stars')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('file_entries.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('file_entry_stars_pk', ['user_id', 'entry_id'])
    .execute();
  await db.schema.createIndex('file_entry_stars_entry_index').on('file_entry_stars').column('entry_id').execute();

  if (pg) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index file_entries_name_trgm_index on file_entries using gin (name gin_trgm_ops)`.execute(db);
  } else {
    // External-content FTS5 table: the index holds trigrams only; names stay in file_entries.
    await sql`create virtual table file_entries_search using fts5(name, content='file_entries', content_rowid='id', tokenize='trigram')`.execute(db);
    await sql`create trigger file_entries_search_insert after insert on file_entries begin
      insert into file_entries_search(rowid, name) values (new.id, new.name);
    end`.execute(db);
    await sql`create trigger file_entries_search_delete after delete on file_entries begin
      insert into file_entries_search(file_entries_search, rowid, name) values ('delete', old.id, old.name);
    end`.execute(db);
    await sql`create trigger file_entries_search_update after update of name on file_entries begin
      insert into file_entries_search(file_entries_search, rowid, name) values ('delete', old.id, old.name);
      insert into file_entries_search(rowid, name) values (new.id, new.name);
    end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) {
    for (const trigger of ['file_entries_search_insert', 'file_entries_search_delete', 'file_entries_search_update']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table if exists file_entries_search`.execute(db);
  }
  await db.schema.dropTable('file_entry_stars').execute();
  await db.schema.dropTable('file_entries').execute();
}
