import { sql } from 'kysely';
import type { FileEntryRow, FileVersionRow } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { kindOf } from './kinds.js';
import { adjustAncestorSizes, findById, subtreeOf, type Executor } from './repository.js';

/**
 * SQL of `file_versions`: the earlier contents of files. A version row owns
 * the storage folder the file's bytes were in before the overwrite (nothing
 * is copied); deleting a version deletes that folder after the commit.
 */

/** New bytes for a file, already stored under their own folder. */
export interface NewContent {
  diskPrefix: string;
  fileName: string;
  size: number;
  sha256: string;
  mime: string;
}

export type Overwrite =
  /** The bytes are the file's already: nothing changed, the new copy is the caller's to delete. */
  | { kind: 'unchanged'; entry: FileEntryRow }
  /** The file's content moved on from `expected`: nothing was written. */
  | { kind: 'conflict'; entry: FileEntryRow | undefined }
  | { kind: 'replaced'; entry: FileEntryRow; version: FileVersionRow | null };

/**
 * The one way a file's content is replaced (document save, WebDAV PUT and
 * MOVE onto a file, an upload that replaces, a restore), inside the caller's
 * transaction: the current bytes become a version (with when and by whom they
 * were written), the row points at the new bytes, the folders above count the
 * new size. Identical bytes (same sha256 and size) make no version and change
 * nothing. With `expected`, the write happens only while the file's sha256 is
 * still that (a compare-and-set: a writer holding an old version never
 * overwrites a newer one).
 */
export async function overwriteContent(trx: Executor, entryId: number, next: NewContent, by: number | null, expected?: string): Promise<Overwrite> {
  const previous = await findById(trx, entryId);
  if (!previous || previous.type === 'folder') return { kind: 'conflict', entry: previous };
  if (expected !== undefined && (previous.sha256 !== expected || previous.deleted_at !== null)) return { kind: 'conflict', entry: previous };
  if (previous.sha256 === next.sha256 && Number(previous.file_size) === next.size) return { kind: 'unchanged', entry: previous };
  const now = nowIso();
  const update = trx
    .updateTable('file_entries')
    .set({
      disk_prefix: next.diskPrefix,
      file_name: next.fileName,
      file_size: next.size,
      sha256: next.sha256,
      mime: next.mime,
      type: kindOf(next.mime, previous.extension),
      // The new folder has no thumbnail yet.
      thumbnail: 0,
      content_at: now,
      content_by: by,
      updated_at: now,
    })
    .where('id', '=', previous.id);
  const result = await (expected === undefined ? update : update.where(sql<boolean>`sha256 = ${expected}`)).executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return { kind: 'conflict', entry: await findById(trx, entryId) };
  await adjustAncestorSizes(trx, previous.path, next.size - Number(previous.file_size), previous.deleted_at);
  const version = previous.disk_prefix && previous.file_name ? await insertVersion(trx, previous, now) : null;
  return { kind: 'replaced', entry: (await findById(trx, previous.id))!, version };
}

async function insertVersion(trx: Executor, previous: FileEntryRow, replacedAt: string): Promise<FileVersionRow> {
  const { id } = await trx
    .insertInto('file_versions')
    .values({
      entry_id: previous.id,
      owner_id: previous.owner_id,
      disk_prefix: previous.disk_prefix!,
      file_name: previous.file_name!,
      file_size: Number(previous.file_size),
      sha256: previous.sha256,
      mime: previous.mime,
      created_by: previous.content_at ? previous.content_by : previous.created_by,
      created_at: previous.content_at ?? previous.created_at,
      replaced_at: replacedAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return (await findVersion(trx, previous.id, id))!;
}

/** A file's versions, newest first (by when their bytes were written, then insertion). */
export function versionsOf(db: Executor, entryId: number): Promise<FileVersionRow[]> {
  return db.selectFrom('file_versions').selectAll().where('entry_id', '=', entryId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export function findVersion(db: Executor, entryId: number, versionId: number): Promise<FileVersionRow | undefined> {
  return db.selectFrom('file_versions').selectAll().where('entry_id', '=', entryId).where('id', '=', versionId).executeTakeFirst();
}

/** Removes version rows and answers their storage folders, to delete after the commit. */
export async function deleteVersions(db: Executor, ids: number[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('file_versions').select('disk_prefix').where('id', 'in', ids).execute();
  await db.deleteFrom('file_versions').where('id', 'in', ids).execute();
  return rows.map((r) => r.disk_prefix);
}

/** The storage folders of the versions of every file at or below `path` (before those rows go). */
export async function versionPrefixesUnder(db: Executor, path: string): Promise<string[]> {
  const rows = await db
    .selectFrom('file_versions')
    .innerJoin('file_entries', 'file_entries.id', 'file_versions.entry_id')
    .select('file_versions.disk_prefix')
    .where(subtreeOf(path))
    .execute();
  return rows.map((r) => r.disk_prefix);
}

/** The storage folders of the versions of these entries. */
export async function versionPrefixesOf(db: Executor, entryIds: number[]): Promise<string[]> {
  if (!entryIds.length) return [];
  const rows = await db.selectFrom('file_versions').select('disk_prefix').where('entry_id', 'in', entryIds).execute();
  return rows.map((r) => r.disk_prefix);
}

/** The storage folders of every version a user is charged for (account deletion). */
export async function versionPrefixesOwnedBy(db: Executor, ownerId: number): Promise<string[]> {
  const rows = await db.selectFrom('file_versions').select('disk_prefix').where('owner_id', '=', ownerId).execute();
  return rows.map((r) => r.disk_prefix);
}

/** A payer's versions, oldest first: the ones dropped first when space runs short. */
export function oldestVersionsOf(db: Executor, ownerId: number, limit: number): Promise<Pick<FileVersionRow, 'id' | 'file_size'>[]> {
  return db.selectFrom('file_versions').select(['id', 'file_size']).where('owner_id', '=', ownerId).orderBy('created_at').orderBy('id').limit(limit).execute();
}

/** Files with versions, a page at a time by id (the retention pass). */
export async function entriesWithVersions(db: Executor, afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('file_versions')
    .select('entry_id')
    .where('entry_id', '>', afterId)
    .groupBy('entry_id')
    .orderBy('entry_id')
    .limit(limit)
    .execute();
  return rows.map((r) => r.entry_id);
}
