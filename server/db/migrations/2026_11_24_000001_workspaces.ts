import { sql, type Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Team workspaces (spec §1, §3). A workspace belongs to its owner, who holds
 * every entry in it and pays for it (file_entries.owner_id); members reach
 * them through their role. Workspace roles are rows of `roles` with
 * type 'workspace', so their permissions reuse the catalogue.
 *
 * An invite's id is the bearer token in the invite link: random (not
 * time-ordered), with an expiry that is enforced, and bound to the invited
 * email (joining needs the account with that address).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await withId(db, db.schema.createTable('workspaces'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workspaces_owner_index').on('workspaces').column('owner_id').execute();

  await withId(db, db.schema.createTable('workspace_members'))
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.references('roles.id').onDelete('set null'))
    .addColumn('is_owner', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addUniqueConstraint('workspace_members_workspace_user_unique', ['workspace_id', 'user_id'])
    .execute();
  await db.schema.createIndex('workspace_members_user_index').on('workspace_members').column('user_id').execute();

  await db.schema
    .createTable('workspace_invites')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('workspace_id', 'integer', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'varchar(320)', (c) => c.notNull())
    .addColumn('role_id', 'integer', (c) => c.references('roles.id').onDelete('set null'))
    .addColumn('invited_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addUniqueConstraint('workspace_invites_workspace_email_unique', ['workspace_id', 'email'])
    .execute();
  await db.schema.createIndex('workspace_invites_email_index').on('workspace_invites').column('email').execute();

  // Workspace listings filter on (owner_id, workspace_id) like personal ones, so the
  // listing indexes already serve them; deleting a workspace finds its entries by this one.
  await sql`create index file_entries_workspace_index on file_entries (workspace_id)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index file_entries_workspace_index`.execute(db);
  await db.schema.dropTable('workspace_invites').execute();
  await db.schema.dropTable('workspace_members').execute();
  await db.schema.dropTable('workspaces').execute();
}
