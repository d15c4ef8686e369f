import { sql } from 'kysely';
import type { FileEntryRow } from '../../db/types.js';
import { adjustAncestorSizes, type Executor } from './repository.js';

export type StoredEntry = Pick<FileEntryRow, 'id' | 'hash' | 'name' | 'path' | 'deleted_at' | 'file_size' | 'sha256' | 'disk_prefix' | 'file_name'>;

/** One page (by id) of the entries that point to stored bytes. */
export function entriesWithBytes(db: Executor, afterId: number, limit: number): Promise<StoredEntry[]> {
  return db
    .selectFrom('file_entries')
    .select(['id', 'hash', 'name', 'path', 'deleted_at', 'file_size', 'sha256', 'disk_prefix', 'file_name'])
    .where('disk_prefix', 'is not', null)
    .where('file_name', 'is not', null)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
}

export async function entryExists(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('file_entries').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The object names each of these storage folders' entries, or versions of files, point to. */
export async function namesUnder(db: Executor, prefixes: string[]): Promise<Map<string, Set<string>>> {
  const names = new Map<string, Set<string>>();
  if (!prefixes.length) return names;
  const rows = [
    ...(await db.selectFrom('file_entries').select(['disk_prefix', 'file_name']).where('disk_prefix', 'in', prefixes).execute()),
    ...(await db.selectFrom('file_versions').select(['disk_prefix', 'file_name']).where('disk_prefix', 'in', prefixes).execute()),
  ];
  for (const row of rows) {
    const set = names.get(row.disk_prefix!) ?? new Set<string>();
    if (row.file_name) set.add(row.file_name);
    names.set(row.disk_prefix!, set);
  }
  return names;
}

/**
 * What a folder's size should be (the rule of adjustAncestorSizes): the
 * files below it in the same state — live under a live folder, of the same
 * trash batch (deleted_at) under a trashed one.
 */
const expectedSize = (folderPath: string, deletedAt: string | null) =>
  sql<number | string | null>`(select sum(c.file_size) from file_entries c
    where c.path >= ${`${folderPath}/`} and c.path < ${`${folderPath}0`} and c.type <> 'folder'
    and ${deletedAt === null ? sql`c.deleted_at is null` : sql`c.deleted_at = ${deletedAt}`})`;

export interface FolderSize {
  id: number;
  hash: string;
  name: string;
  recorded: number;
  expected: number;
}

/** Folders whose recorded size is not the sum of their files, read a page at a time. */
export async function folderSizeDrift(db: Executor): Promise<FolderSize[]> {
  const drift: FolderSize[] = [];
  for (let afterId = 0; ;) {
    const folders = await db
      .selectFrom('file_entries')
      .select(['id', 'hash', 'name', 'path', 'deleted_at', 'file_size'])
      .where('type', '=', 'folder')
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(500)
      .execute();
    if (!folders.length) return drift;
    for (const folder of folders) {
      const expected = await folderSize(db, folder);
      if (expected !== Number(folder.file_size))
        drift.push({ id: folder.id, hash: folder.hash, name: folder.name, recorded: Number(folder.file_size), expected });
    }
    afterId = folders.at(-1)!.id;
  }
}

async function folderSize(db: Executor, folder: Pick<FileEntryRow, 'path' | 'deleted_at'>): Promise<number> {
  const row = await db.selectNoFrom(() => expectedSize(folder.path, folder.deleted_at).as('bytes')).executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** Sets a folder's size to what its files add up to now (read and written in one transaction). */
export async function settleFolderSize(db: Executor, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const folder = await trx.selectFrom('file_entries').select(['path', 'deleted_at']).where('id', '=', id).where('type', '=', 'folder').executeTakeFirst();
    if (folder)
      await trx
        .updateTable('file_entries')
        .set({ file_size: await folderSize(trx, folder) })
        .where('id', '=', id)
        .execute();
  });
}

/** Corrects a file's recorded size, and the folders above it that count it. */
export async function correctFileSize(db: Executor, id: number, size: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const entry = await trx.selectFrom('file_entries').select(['path', 'deleted_at', 'file_size']).where('id', '=', id).executeTakeFirst();
    if (!entry) return;
    await trx.updateTable('file_entries').set({ file_size: size }).where('id', '=', id).execute();
    await adjustAncestorSizes(trx, entry.path, size - Number(entry.file_size), entry.deleted_at);
  });
}
