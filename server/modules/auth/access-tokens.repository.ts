import type { Insertable, Kysely } from 'kysely';
import type { Database, PersonalAccessTokensTable } from '../../db/types.js';
import { parseScopes } from './token-scopes.js';

/** The SQL of personal access tokens; only a token's hash is ever stored. */
type Executor = Kysely<Database>;

export async function insertAccessToken(db: Executor, values: Insertable<PersonalAccessTokensTable>): Promise<number> {
  return (await db.insertInto('personal_access_tokens').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/** A user's tokens as the account screen lists them, newest first (the id is the database's counter). */
export async function accessTokensOf(db: Executor, userId: number) {
  const rows = await db
    .selectFrom('personal_access_tokens')
    .select(['id', 'name', 'scopes', 'last_used_at', 'expires_at', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ ...row, scopes: parseScopes(row.scopes) }));
}

/** Deletes one of a user's tokens; whether there was one. */
export async function deleteAccessToken(db: Executor, userId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('personal_access_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function deleteAccessTokensOf(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('personal_access_tokens').where('user_id', '=', userId).execute();
}

export const accessTokenById = (db: Executor, id: number) =>
  db.selectFrom('personal_access_tokens').select(['user_id', 'token_hash', 'expires_at', 'scopes', 'last_used_at']).where('id', '=', id).executeTakeFirst();

export async function markAccessTokenUsed(db: Executor, id: number, now: string): Promise<void> {
  await db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}
