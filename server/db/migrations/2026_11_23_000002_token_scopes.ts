import { sql, type Kysely } from 'kysely';

/**
 * What a personal access token may do: read, write (any unsafe method) and
 * account (change the sign-in email, delete the account). Tokens made before
 * scopes keep what they could do, read and write, but not account changes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('personal_access_tokens')
    .addColumn('scopes', 'varchar(255)', (c) => c.notNull().defaultTo('["read","write"]'))
    .execute();
  await sql`update personal_access_tokens set scopes = '["read","write"]'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('personal_access_tokens').dropColumn('scopes').execute();
}
