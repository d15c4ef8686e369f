import type { Kysely } from 'kysely';
import { timestampType } from './schema-helpers.js';

/**
 * Passkeys (issue 36): WebAuthn credentials, several per user, each named.
 * `id` is the credential id (base64url) the browser sends back, so a
 * password-less sign-in finds its account from the assertion alone.
 * `public_key` is the COSE key in base64url; `counter` the signature counter
 * (an assertion with a counter that does not move forward is a cloned key).
 *
 * `webauthn_challenges`: one ceremony's challenge, for five minutes, keyed by
 * the sha256 of the cookie token that started it; `user_id` null for a
 * password-less sign-in (who it is comes from the passkey).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('last_used_at', ts)
    .execute();
  await db.schema.createIndex('passkeys_user_index').on('passkeys').column('user_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'varchar(20)', (c) => c.notNull())
    .addColumn('challenge', 'varchar(255)', (c) => c.notNull())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').execute();
  await db.schema.dropTable('passkeys').execute();
}
