import type { Kysely } from 'kysely';

/**
 * Two-factor sign-in required for a role (issue 36, item 4): a holder of such
 * a role without a second factor reaches only the set-up screen after signing
 * in, until one is set up (plugins/authenticate.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('roles')
    .addColumn('require_two_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('roles').dropColumn('require_two_factor').execute();
}
