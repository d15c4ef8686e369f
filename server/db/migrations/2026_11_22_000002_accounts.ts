import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/** One-time tokens (email verification, password reset) and linked social accounts. */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  await withId(db, db.schema.createTable('user_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(32)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_tokens_user_type_index').on('user_tokens').columns(['user_id', 'type']).execute();

  await withId(db, db.schema.createTable('social_profiles'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service_name', 'varchar(32)', (c) => c.notNull())
    .addColumn('user_service_id', 'varchar(255)', (c) => c.notNull())
    .addColumn('username', 'varchar(255)')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addUniqueConstraint('social_profiles_service_user_unique', ['service_name', 'user_service_id'])
    .addUniqueConstraint('social_profiles_user_service_unique', ['user_id', 'service_name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('social_profiles').execute();
  await db.schema.dropTable('user_tokens').execute();
}
