import type { Kysely } from 'kysely';
import { timestampType, withId } from './schema-helpers.js';

/**
 * Two-factor sign-in (issue 36).
 *
 * `user_totp`: an authenticator app's secret, one per user. `confirmed_at` is
 * null while setup waits for its first code (the app is not yet proven to
 * hold the secret, so the account is not yet protected by it). `last_step` is
 * the RFC 6238 time step of the last accepted code: a code is refused unless
 * its step is later, so an overheard code cannot be replayed in its window.
 *
 * `two_factor_recovery_codes`: ten single-use codes, sha256 only (they are
 * random and long, so a slow hash buys nothing), `used_at` set once.
 *
 * `sign_in_challenges`: a sign-in between its two steps. It is deliberately
 * not a session: nothing that reads sessions can mistake it for one. The
 * cookie holds a token whose sha256 is `id`.
 *
 * `two_factor_devices`: "remember this device for 30 days": a browser whose
 * cookie matches is not asked for the second step again until `expires_at`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'varchar(64)', (c) => c.notNull())
    .addColumn('confirmed_at', ts)
    .addColumn('last_step', 'bigint')
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable('two_factor_recovery_codes'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('two_factor_recovery_codes_user_index').on('two_factor_recovery_codes').columns(['user_id', 'code_hash']).execute();

  await db.schema
    .createTable('sign_in_challenges')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_challenges_user_index').on('sign_in_challenges').column('user_id').execute();

  await db.schema
    .createTable('two_factor_devices')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('two_factor_devices_user_index').on('two_factor_devices').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('two_factor_devices').execute();
  await db.schema.dropTable('sign_in_challenges').execute();
  await db.schema.dropTable('two_factor_recovery_codes').execute();
  await db.schema.dropTable('user_totp').execute();
}
