import type { Insertable, Kysely } from 'kysely';
import type { Database, UserTokensTable } from '../../db/types.js';

/** The SQL of single-use tokens (email verification, password reset); the rules are user-tokens.ts's. */
type Executor = Kysely<Database>;

/** Stores a new token in place of the user's earlier ones of its type, in one transaction. */
export async function replaceUserToken(db: Executor, values: Insertable<UserTokensTable>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('user_tokens').where('user_id', '=', values.user_id).where('type', '=', values.type).execute();
    await trx.insertInto('user_tokens').values(values).execute();
  });
}

export const userTokenByHash = (db: Executor, hash: string, type: string) =>
  db.selectFrom('user_tokens').select(['id', 'user_id', 'expires_at', 'used_at']).where('token_hash', '=', hash).where('type', '=', type).executeTakeFirst();

/** Marks a token used unless it already is; whether this call did (so two concurrent uses cannot both succeed). */
export async function markUserTokenUsed(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db.updateTable('user_tokens').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
