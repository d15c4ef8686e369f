import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';

/** The SQL of stored settings: one row a key, its value as JSON; the defaults and rules are service.ts's. */
type Executor = Kysely<Database>;

export const storedSettings = (db: Executor) => db.selectFrom('settings').select(['key', 'value', 'private']).execute();

export async function storedValue(db: Executor, key: string): Promise<string | undefined> {
  return (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
}

/** Stores a private value unless the key already has one (every process races to create the same secret; the first wins). */
export async function insertSecretOnce(db: Executor, key: string, value: string, now: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value, private: 1, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Writes these values (already JSON) in one transaction, each replacing what its key held. */
export async function upsertSettings(db: Executor, rows: { key: string; value: string; private: number }[], now: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx
        .insertInto('settings')
        .values({ ...row, updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: row.value, updated_at: now }))
        .execute();
    }
  });
}
