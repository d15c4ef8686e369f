import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';
import { chargedBytesByOwner, fileCount, filesCreatedSince } from '../../drive/repository.js';
import { emailOf, userCount, usersCreatedSince } from '../../users/accounts.repository.js';
import { workspaceCount } from '../../workspaces/repository.js';

/**
 * The dashboard's read model. It names no table: each figure is an expression
 * its table's owner exports, so what counts as a file or as the bytes a user
 * is charged is decided where the table lives.
 */
type Executor = Kysely<Database>;

/** The site's totals in one round trip; `used` is what the users together are charged. */
export async function totals(db: Executor): Promise<{ users: number; files: number; workspaces: number; used: number; versions: number }> {
  const row = await db
    .selectNoFrom((eb) => [
      userCount(db).as('users'),
      fileCount(db).as('files'),
      workspaceCount(db).as('workspaces'),
      eb
        .selectFrom(chargedBytesByOwner(db).as('charged'))
        .select((inner) => inner.fn.sum<number | string | null>('charged.bytes').as('b'))
        .as('used'),
      // Versions' part of it (drive's rule says which bytes are versions).
      eb
        .selectFrom(chargedBytesByOwner(db).as('charged'))
        .select((inner) => inner.fn.sum<number | string | null>('charged.version_bytes').as('v'))
        .as('versions'),
    ])
    .executeTakeFirstOrThrow();
  return {
    users: Number(row.users ?? 0),
    files: Number(row.files ?? 0),
    workspaces: Number(row.workspaces ?? 0),
    used: Number(row.used ?? 0),
    versions: Number(row.versions ?? 0),
  };
}

/** When each file and each account made since `since` was made (bucketed by the caller: dialects keep dates differently). */
export async function createdSince(db: Executor, since: string): Promise<{ uploads: string[]; signups: string[] }> {
  const [uploads, signups] = await Promise.all([filesCreatedSince(db, since).execute(), usersCreatedSince(db, since).execute()]);
  return { uploads: uploads.map((r) => r.created_at), signups: signups.map((r) => r.created_at) };
}

/** The users charged the most, largest first (ties by id). */
export async function largestUsers(db: Executor, limit: number): Promise<{ id: number; email: string; bytes: number }[]> {
  const rows = await db
    .selectFrom(chargedBytesByOwner(db).as('charged'))
    .select((eb) => ['charged.owner_id', emailOf(db, eb.ref('charged.owner_id')).as('email'), 'charged.bytes'])
    .orderBy('charged.bytes', 'desc')
    .orderBy('charged.owner_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: row.owner_id, email: row.email ?? '', bytes: Number(row.bytes) }));
}
