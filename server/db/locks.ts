import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Dialect } from './index.js';
import type { Database } from './types.js';

/**
 * Serialises transactions that read-then-write one user's totals (quota
 * reservations). PostgreSQL takes a row lock on the user; SQLite already runs
 * one write transaction at a time, so it needs nothing.
 */
export async function lockUserRow(trx: Kysely<Database>, dialect: Dialect, userId: number): Promise<void> {
  if (dialect === 'postgres') await sql`select id from users where id = ${userId} for update`.execute(trx);
}

/** The advisory-lock class of folder locks, so their keys never meet another feature's. */
const FOLDER_LOCK_CLASS = 1_684_632_420;

/**
 * The lock key of a folder: its id; a space's root has no row, so it gets a
 * negative key of its own (personal roots even, workspace roots odd).
 */
export const folderLockKey = (space: { ownerId: number; workspaceId: number | null }, folderId: number | null): number =>
  folderId ?? (space.workspaceId ? -(2 * space.workspaceId + 1) : -2 * space.ownerId);

/**
 * Serialises the transactions that add names to the same folders (a new
 * file, a folder, a move, a copy, a restore), so that two of them never both
 * find a name free and both take it. PostgreSQL: transaction-scoped advisory
 * locks, taken all at once in ascending key order — every transaction asks
 * for the folders it writes names into in one call, before it looks at their
 * names, so two transactions never wait on each other in opposite orders.
 * Folders the transaction itself creates need none: nobody else sees them
 * before it commits. SQLite runs one write transaction at a time already.
 */
export async function lockFolders(trx: Kysely<Database>, keys: number[]): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  for (const key of [...new Set(keys)].sort((a, b) => a - b)) await sql`select pg_advisory_xact_lock(${FOLDER_LOCK_CLASS}, ${key})`.execute(trx);
}

/** The advisory-lock class of WebDAV lock grants, apart from the folders'. */
const DAV_LOCK_CLASS = 1_684_632_421;

/**
 * Serialises the transactions that grant WebDAV locks in one space (the key
 * is `folderLockKey(space, null)`): each looks for conflicting locks and then
 * inserts its own, so two LOCKs at once on one resource, or on a folder with
 * Depth infinity and a member of it, never both find none. PostgreSQL: a
 * transaction-scoped advisory lock; SQLite runs one transaction at a time on
 * its one connection already.
 */
export async function lockDavLocks(trx: Kysely<Database>, key: number): Promise<void> {
  if (!(trx.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`select pg_advisory_xact_lock(${DAV_LOCK_CLASS}, ${key})`.execute(trx);
}
