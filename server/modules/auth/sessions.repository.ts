import type { Expression, Insertable, Kysely } from 'kysely';
import type { Database, SessionsTable } from '../../db/types.js';

/** The SQL of browser sessions; the rules (lifetimes, sliding expiry) are sessions.ts's. */
type Executor = Kysely<Database>;

/**
 * A scalar subquery of when a user (a column of the outer query) was last
 * active in a session of their own (an admin's "sign in as" is not their
 * activity), null if never; for others' read models such as the admin's user table.
 */
export const lastActiveAt = (db: Executor, user: Expression<number>) =>
  db
    .selectFrom('sessions')
    .select((eb) => eb.fn.max('sessions.last_active_at').as('last_active_at'))
    .where('sessions.user_id', '=', user)
    .where('sessions.impersonator_id', 'is', null);

export async function insertSession(db: Executor, values: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(values).execute();
}

/** A session by its id (the token's hash). */
export const sessionById = (db: Executor, id: string) =>
  db
    .selectFrom('sessions')
    .select(['user_id', 'created_at', 'last_active_at', 'expires_at', 'remember', 'impersonator_id'])
    .where('id', '=', id)
    .executeTakeFirst();

export async function touchSession(db: Executor, id: string, lastActiveAt: string, expiresAt: string): Promise<void> {
  await db.updateTable('sessions').set({ last_active_at: lastActiveAt, expires_at: expiresAt }).where('id', '=', id).execute();
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

/** Deletes a user's sessions, but the one whose id is `keepId` if given. */
export async function deleteSessionsOf(db: Executor, userId: number, keepId?: string): Promise<void> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepId) query = query.where('id', '!=', keepId);
  await query.execute();
}
