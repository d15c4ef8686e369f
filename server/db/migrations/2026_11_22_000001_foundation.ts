import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/** Users, roles and permissions, settings, localizations, menus, themes, sessions and tokens. */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await withId(db, db.schema.createTable('users'))
    .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(255)')
    .addColumn('first_name', 'varchar(255)')
    .addColumn('last_name', 'varchar(255)')
    .addColumn('avatar', 'varchar(2048)')
    .addColumn('email2', 'varchar(320)')
    .addColumn('company', 'varchar(255)')
    .addColumn('designation', 'varchar(255)')
    .addColumn('mobile', 'varchar(64)')
    .addColumn('address', 'varchar(255)')
    .addColumn('city', 'varchar(255)')
    .addColumn('country', 'varchar(8)')
    .addColumn('zipcode', 'varchar(32)')
    .addColumn('language', 'varchar(16)')
    .addColumn('timezone', 'varchar(64)')
    .addColumn('email_verified_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('roles'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('guests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', 'varchar(32)', (c) => c.notNull().defaultTo('sitewide'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('permissions'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('display_name', 'varchar(255)')
    .addColumn('description', 'text')
    .addColumn('group', 'varchar(64)', (c) => c.notNull())
    .addColumn('restrictions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('role_permissions')
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('permission_id', 'integer', (c) => c.notNull().references('permissions.id').onDelete('cascade'))
    .addColumn('restrictions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addPrimaryKeyConstraint('role_permissions_pk', ['role_id', 'permission_id'])
    .execute();

  await db.schema
    .createTable('user_permissions')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission_id', 'integer', (c) => c.notNull().references('permissions.id').onDelete('cascade'))
    .addColumn('restrictions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addPrimaryKeyConstraint('user_permissions_pk', ['user_id', 'permission_id'])
    .execute();

  await db.schema
    .createTable('user_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('user_roles_role_id_index').on('user_roles').column('role_id').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('private', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('localizations'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('language', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('localization_lines'))
    .addColumn('localization_id', 'integer', (c) => c.notNull().references('localizations.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addUniqueConstraint('localization_lines_localization_key_unique', ['localization_id', 'key'])
    .execute();

  await withId(db, db.schema.createTable('menus'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('positions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('items', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('themes'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('is_dark', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_light', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_dark', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('colors', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip_address', 'varchar(64)')
    .addColumn('user_agent', 'text')
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_active_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute();

  await withId(db, db.schema.createTable('personal_access_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('last_used_at', ts)
    .addColumn('expires_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('personal_access_tokens_user_id_index').on('personal_access_tokens').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'personal_access_tokens',
    'sessions',
    'themes',
    'menus',
    'localization_lines',
    'localizations',
    'settings',
    'user_roles',
    'user_permissions',
    'role_permissions',
    'permissions',
    'roles',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
