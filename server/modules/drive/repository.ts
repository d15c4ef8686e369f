import { SqliteAdapter, sql, type Expression, type Insertable, type Kysely, type SqlBool } from 'kysely';
import type { Database, FileEntryRow } from '../../db/types.js';
import { prepared } from '../../db/prepared.js';
import { nowIso } from '../../lib/time.js';
import { randomToken } from '../../lib/tokens.js';
import { firstFreeName } from './names.js';

/**
 * SQL of the entry tree. `path` holds the ids from the top folder down to the
 * entry itself ("12/40/41"), so a subtree is one index range
 * (`path >= '12/40/' and path < '12/400'`: '0' is the character after '/'),
 * and the ancestors are the path's other ids. Every function takes the
 * executor so that services can run several in one transaction.
 */
export type Executor = Kysely<Database>;

/**
 * A drive space: a user's personal space (workspaceId null), or a workspace.
 * `ownerId` owns the space's entries and pays for them: the user, or the
 * workspace's owner (whoever of its members created each, see created_by).
 */
export interface Scope {
  ownerId: number;
  workspaceId: number | null;
}

/** The space an entry lives in. */
export const spaceOf = (entry: Pick<FileEntryRow, 'owner_id' | 'workspace_id'>): Scope => ({ ownerId: entry.owner_id, workspaceId: entry.workspace_id });

export const newHash = (): string => randomToken(12);

export const ancestorIds = (path: string): number[] => path.split('/').slice(0, -1).map(Number);

export const childPath = (parentPath: string | null, id: number): string => (parentPath ? `${parentPath}/${id}` : String(id));

// Conditions on the `file_entries` table, usable in any query that selects from it (joins included).

/** Strictly below `path`. */
export const descendantsOf = (path: string): Expression<SqlBool> => sql<SqlBool>`(file_entries.path >= ${`${path}/`} and file_entries.path < ${`${path}0`})`;

/** The entry at `path` and everything below it. */
export const subtreeOf = (path: string): Expression<SqlBool> => sql<SqlBool>`(file_entries.path = ${path} or ${descendantsOf(path)})`;

/**
 * Whether the entry `entryId` (a column of another module's table, such as a
 * WebDAV lock's) is strictly below `path` (and live, unless `trashed` counts
 * too), as a subquery for `exists`.
 */
export const entryBelow = (db: Executor, entryId: Expression<number | null>, path: string, trashed = false) =>
  entryBetween(db, entryId, belowBounds(path), trashed);

/** The path range strictly below `path` (descendantsOf's), for a caller that passes it as values (a prepared statement). */
export const belowBounds = (path: string) => ({ from: `${path}/`, to: `${path}0` });

/** entryBelow, for the path range `belowBounds` answered. */
export const entryBetween = (db: Executor, entryId: Expression<number | null>, bounds: { from: unknown; to: unknown }, trashed = false) => {
  const below = db
    .selectFrom('file_entries')
    .select('file_entries.id')
    .where('file_entries.id', '=', entryId)
    .where(sql<SqlBool>`(file_entries.path >= ${bounds.from} and file_entries.path < ${bounds.to})`);
  return trashed ? below : below.where('file_entries.deleted_at', 'is', null);
};

/** Which of `ids` still have an entry (trashed or not), inside the caller's transaction: for another module's rows keyed by entry. */
export async function entriesThatExist(db: Executor, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  return new Set((await db.selectFrom('file_entries').select('id').where('id', 'in', ids).execute()).map((row) => row.id));
}

/** The ids of a folder's live children in a space (`parentId` null: its top level), as a subquery for another module's `in`. */
export const liveChildIds = (db: Executor, space: Scope, parentId: number | null) =>
  db
    .selectFrom('file_entries')
    .select('file_entries.id')
    .where(inScope(space))
    .where('file_entries.parent_id', parentId === null ? 'is' : '=', parentId)
    .where('file_entries.deleted_at', 'is', null);

/** Every entry of a space (the owner leads, so the listing indexes serve workspaces too). */
export const inScope = (scope: Scope): Expression<SqlBool> =>
  scope.workspaceId
    ? sql<SqlBool>`(file_entries.owner_id = ${scope.ownerId} and file_entries.workspace_id = ${scope.workspaceId})`
    : sql<SqlBool>`(file_entries.owner_id = ${scope.ownerId} and file_entries.workspace_id is null)`;

/** Whether two spaces are the same one (entries never move between spaces; they are copied). */
export const sameSpace = (a: Scope, b: Scope): boolean => a.ownerId === b.ownerId && (a.workspaceId ?? null) === (b.workspaceId ?? null);

export function findByHash(db: Executor, hash: string): Promise<FileEntryRow | undefined> {
  return db.selectFrom('file_entries').selectAll().where('hash', '=', hash).executeTakeFirst();
}

export function findById(db: Executor, id: number): Promise<FileEntryRow | undefined> {
  return db.selectFrom('file_entries').selectAll().where('id', '=', id).executeTakeFirst();
}

// One hash is what every call on a folder or a file asks (the listing's folder, say): compiled once.
const byOneHash = prepared(
  () => 'one',
  (db, { hash }: { hash: string }) => db.selectFrom('file_entries').selectAll().where('hash', 'in', [hash]),
);

export function findByHashes(db: Executor, hashes: string[]): Promise<FileEntryRow[]> {
  if (!hashes.length) return Promise.resolve([]);
  if (hashes.length === 1) return byOneHash(db, { hash: hashes[0]! }, null);
  return db.selectFrom('file_entries').selectAll().where('hash', 'in', hashes).execute();
}

export function findByIds(db: Executor, ids: number[]): Promise<FileEntryRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db.selectFrom('file_entries').selectAll().where('id', 'in', ids).execute();
}

/**
 * Which of `candidates` are names of live entries directly in a folder (null:
 * the space's root): an index look-up (file_entries_child_name_index), never
 * a read of the whole folder.
 */
export async function takenNames(db: Executor, scope: Scope, parentId: number | null, candidates: string[]): Promise<Set<string>> {
  if (!candidates.length) return new Set();
  const rows = await db
    .selectFrom('file_entries')
    .select('name')
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .where('name', 'in', candidates)
    .where(inScope(scope))
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.name));
}

/** Whether a live entry directly in a folder has this name. */
export async function nameTaken(db: Executor, scope: Scope, parentId: number | null, name: string): Promise<boolean> {
  return (await takenNames(db, scope, parentId, [name])).has(name);
}

/** `name`, or its first free " (n)" form in a folder (see names.ts nameCandidates). */
export function freeChildName(db: Executor, scope: Scope, parentId: number | null, name: string, isFolder: boolean): Promise<string> {
  return firstFreeName(name, isFolder, (candidates) => takenNames(db, scope, parentId, candidates));
}

export interface NewEntry {
  name: string;
  type: string;
  mime?: string | null;
  extension?: string | null;
  fileSize?: number;
  description?: string | null;
  diskPrefix?: string | null;
  fileName?: string | null;
  sha256?: string | null;
  createdAt?: string;
  /** The user who made it; the owner is the space's. */
  createdBy: number | null;
}

/** Inserts an entry under `parent` (null: root) and sets its path; the caller rolls sizes up. */
const entryInsert = prepared(
  () => 'one',
  (db, row: Omit<Insertable<Database['file_entries']>, 'id' | 'path'>) => db.insertInto('file_entries').values(row).returning('id'),
);

const pathSet = prepared(
  () => 'one',
  (db, { id, path }: { id: number; path: string }) => db.updateTable('file_entries').set({ path }).where('id', '=', id).returningAll(),
);

type EntryValues = Omit<Insertable<Database['file_entries']>, 'id' | 'path'>;

/** The columns a new entry is given, in the one order the SQLite insert below names them. */
const ENTRY_COLUMNS = [
  'hash',
  'name',
  'description',
  'type',
  'mime',
  'extension',
  'file_size',
  'parent_id',
  'disk_prefix',
  'file_name',
  'sha256',
  'owner_id',
  'created_by',
  'workspace_id',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof EntryValues)[];

/**
 * SQLite: the row inserted with its path, in one statement, by taking the id AUTOINCREMENT would have given (the
 * larger of the highest id ever used and the highest now, plus one; a write transaction is the only writer, and the
 * insert moves sqlite_sequence on as its own would). One statement and one row read where insert-then-update took
 * two, and the path index is written once.
 */
const entryInsertWithPath = prepared(
  () => 'one',
  (db, values: EntryValues & { pathPrefix: string }) =>
    db
      .insertInto('file_entries')
      .columns(['id', 'path', ...ENTRY_COLUMNS])
      .expression(
        db
          .selectFrom(
            sql<{
              id: number;
            }>`(select max(coalesce((select seq from sqlite_sequence where name = 'file_entries'), 0), coalesce((select max(id) from file_entries), 0)) + 1 as id)`.as(
              'next',
            ),
          )
          .select([
            sql<number>`next.id`.as('id'),
            sql<string>`${values.pathPrefix} || next.id`.as('path'),
            ...ENTRY_COLUMNS.map((column) => sql`${values[column]}`.as(column)),
          ]),
      )
      .returningAll(),
);

export async function insertEntry(db: Executor, scope: Scope, parent: FileEntryRow | null, entry: NewEntry): Promise<FileEntryRow> {
  const now = nowIso();
  // Every column named in one order whatever the entry has (a prepared statement's shape): absent ones are null.
  const values: EntryValues = {
    hash: newHash(),
    name: entry.name,
    description: entry.description ?? null,
    type: entry.type,
    mime: entry.mime ?? null,
    extension: entry.extension ?? null,
    file_size: entry.fileSize ?? 0,
    parent_id: parent?.id ?? null,
    disk_prefix: entry.diskPrefix ?? null,
    file_name: entry.fileName ?? null,
    sha256: entry.sha256 ?? null,
    owner_id: scope.ownerId,
    created_by: entry.createdBy,
    workspace_id: scope.workspaceId ?? null,
    created_at: entry.createdAt ?? now,
    updated_at: now,
  };
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    const [row] = await entryInsertWithPath(db, { ...values, pathPrefix: parent?.path ? `${parent.path}/` : '' }, null);
    if (!row) throw new Error('The entry just inserted came back empty');
    return row;
  }
  const [{ id }] = (await entryInsert(db, values, null)) as [{ id: number }];
  // The path holds the new id: set once it is known, and the row comes back with it (no third statement).
  const [row] = await pathSet(db, { id, path: childPath(parent?.path ?? null, id) }, null);
  if (!row) throw new Error(`The entry ${id} just inserted is gone`);
  return row;
}

/**
 * Adds `delta` bytes to the folders above `path` that count it: those in the
 * same state as the entry (live ancestors of a live entry; for a trashed
 * entry, the ancestors trashed in the same batch, which share its deleted_at).
 */
// Once per new file (its folders' sizes): compiled once per depth.
const sizesAdjusted = prepared(
  ({ depth, trashed }: { depth: number; trashed: boolean }) => `${depth}${trashed ? 't' : 'l'}`,
  (db, values: { delta: number; deletedAt: string | null } & Record<`id${number}`, number>, { depth, trashed }) =>
    db
      .updateTable('file_entries')
      .set({ file_size: sql<number>`file_size + ${values.delta}` })
      .where(
        'id',
        'in',
        Array.from({ length: depth }, (_, i) => values[`id${i}`]!),
      )
      .where('deleted_at', trashed ? '=' : 'is', trashed ? values.deletedAt : null),
);

export async function adjustAncestorSizes(db: Executor, path: string, delta: number, deletedAt: string | null): Promise<void> {
  const ids = ancestorIds(path);
  if (!ids.length || delta === 0) return;
  const values = Object.fromEntries(ids.map((id, i) => [`id${i}`, id])) as Record<`id${number}`, number>;
  await sizesAdjusted(db, { ...values, delta, deletedAt }, { depth: ids.length, trashed: deletedAt !== null });
}

/**
 * Adds each live folder's delta (folder id → bytes) to its size: one statement a distinct delta (the sizes a group
 * of new files adds to their folders, GroupCommit.shared, usually one folder and one delta).
 */
export async function addToLiveFolderSizes(db: Executor, deltas: Map<number, number>): Promise<void> {
  const byDelta = new Map<number, number[]>();
  for (const [id, delta] of deltas) if (delta !== 0) byDelta.set(delta, [...(byDelta.get(delta) ?? []), id]);
  for (const [delta, ids] of byDelta)
    for (let at = 0; at < ids.length; at += 16) {
      const some = ids.slice(at, at + 16);
      const values = Object.fromEntries(some.map((id, i) => [`id${i}`, id])) as Record<`id${number}`, number>;
      await sizesAdjusted(db, { ...values, delta, deletedAt: null }, { depth: some.length, trashed: false });
    }
}

/** Re-parents an entry and rewrites the paths of its whole subtree in one statement. */
export async function moveSubtree(db: Executor, entry: FileEntryRow, parent: FileEntryRow | null, name: string): Promise<string> {
  const newPath = childPath(parent?.path ?? null, entry.id);
  await db
    .updateTable('file_entries')
    .set({ path: sql<string>`cast(${newPath} as text) || substr(path, ${entry.path.length + 1})` })
    .where(descendantsOf(entry.path))
    .execute();
  await db
    .updateTable('file_entries')
    .set({ parent_id: parent?.id ?? null, path: newPath, name })
    .where('id', '=', entry.id)
    .execute();
  return newPath;
}

export function subtreeRows(db: Executor, path: string): Promise<FileEntryRow[]> {
  return db.selectFrom('file_entries').selectAll().where(subtreeOf(path)).orderBy('id').execute();
}

/** Keeps only the entries that have no ancestor in the same list (a folder carries its contents). */
/** Removes the entry at `path` and everything below it (the caller has adjusted sizes and kept the prefixes). */
export async function deleteSubtree(db: Executor, path: string): Promise<void> {
  await db.deleteFrom('file_entries').where(subtreeOf(path)).execute();
}

/** Live entries matching `condition` (another module's filter on file_entries), by name. */
export function liveEntriesWhere(db: Executor, condition: Expression<SqlBool>): Promise<FileEntryRow[]> {
  return db.selectFrom('file_entries').selectAll().where(condition).where('deleted_at', 'is', null).orderBy('name').orderBy('id').execute();
}

export function topmost(entries: FileEntryRow[]): FileEntryRow[] {
  const ids = new Set(entries.map((e) => e.id));
  const unique = [...new Map(entries.map((e) => [e.id, e])).values()];
  return unique.filter((e) => !ancestorIds(e.path).some((id) => ids.has(id)));
}

export const storageKey = (entry: Pick<FileEntryRow, 'disk_prefix' | 'file_name'>): string | null =>
  entry.disk_prefix && entry.file_name ? `${entry.disk_prefix}/${entry.file_name}` : null;

export const thumbnailKey = (entry: Pick<FileEntryRow, 'disk_prefix'>): string | null => (entry.disk_prefix ? `${entry.disk_prefix}/thumbnail.webp` : null);

/**
 * Bytes a user is charged for: the files they own — their personal space and
 * the workspaces they own — trash included (it takes space until deleted
 * forever), whoever uploaded them. The one rule behind the storage summary,
 * the quota check and the admin's figures: other modules' read models embed
 * `chargedBytes` or `chargedBytesByOwner` rather than summing file_entries
 * themselves, so changing what is charged is one edit.
 */
const chargedFiles = (db: Executor) => db.selectFrom('file_entries').where('file_entries.type', '!=', 'folder');

/** A user's versions (see versions.repository.ts): charged like files until they are dropped. */
const chargedVersions = (db: Executor) => db.selectFrom('file_versions');

/**
 * A scalar subquery of the bytes charged to `owner` (a user id, or a column of
 * the outer query such as `eb.ref('users.id')`), 0 when none; select it
 * `.as(...)` into a read model. Files (trash included) and their versions.
 */
export const chargedBytes = (db: Executor, owner: number | Expression<number>) => {
  const files = chargedFiles(db)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('file_entries.file_size'), sql<number | string>`0`).as('b'))
    .where('file_entries.owner_id', '=', owner);
  const versions = chargedVersions(db)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('file_versions.file_size'), sql<number | string>`0`).as('b'))
    .where('file_versions.owner_id', '=', owner);
  return db.selectNoFrom(sql<number | string>`(${files}) + (${versions})`.as('bytes'));
};

/**
 * The bytes charged to every user who is charged anything: rows of
 * (owner_id, bytes, version_bytes) — `bytes` is the whole charge, versions
 * included; `version_bytes` is their part — to join or sum.
 */
export const chargedBytesByOwner = (db: Executor) => {
  const files = chargedFiles(db)
    .select((eb) => [
      'file_entries.owner_id as owner_id',
      eb.fn.sum<number | string>('file_entries.file_size').as('bytes'),
      sql<number | string>`0`.as('version_bytes'),
    ])
    .groupBy('file_entries.owner_id');
  const versions = chargedVersions(db)
    .select((eb) => [
      'file_versions.owner_id as owner_id',
      eb.fn.sum<number | string>('file_versions.file_size').as('bytes'),
      eb.fn.sum<number | string>('file_versions.file_size').as('version_bytes'),
    ])
    .groupBy('file_versions.owner_id');
  return db
    .selectFrom(files.unionAll(versions).as('parts'))
    .select((eb) => [
      'parts.owner_id',
      eb.fn.sum<number | string>('parts.bytes').as('bytes'),
      eb.fn.sum<number | string>('parts.version_bytes').as('version_bytes'),
    ])
    .groupBy('parts.owner_id');
};

/** Stored files, folders aside (what is charged may come to differ: see chargedFiles). */
const files = (db: Executor) => db.selectFrom('file_entries').where('file_entries.type', '!=', 'folder');

/** A scalar subquery of how many files (folders aside) are stored, for a read model's figures. */
export const fileCount = (db: Executor) => files(db).select((eb) => eb.fn.countAll<number | string>().as('n'));

/** When each file (folders aside) created since `since` was created: rows to bucket by day. */
export const filesCreatedSince = (db: Executor, since: string) => files(db).select('file_entries.created_at').where('file_entries.created_at', '>=', since);

/**
 * What a user is charged now, from the running total the database keeps
 * (charged_bytes, by triggers on file_entries and file_versions): one row,
 * however many files — the quota check before every upload reads it. Equal to
 * `chargedBytes`' sum, which read models still join.
 */
export async function bytesCharged(db: Executor, userId: number): Promise<number> {
  const row = await chargedTotal(db, userId).executeTakeFirst();
  return Number(row?.bytes ?? 0);
}

/** bytesCharged's one row as a query, to read as a scalar subquery beside other figures (the quota check). */
export const chargedTotal = (db: Executor, userId: number) => db.selectFrom('charged_bytes').select('bytes').where('user_id', '=', userId);

/** Who pays for what is stored in a space (see bytesCharged). */
export const payerOf = (space: Scope): number => space.ownerId;

/**
 * Removes every entry a user owns — their personal space and the workspaces
 * they own, which go with them — for account deletion, and answers the
 * storage prefixes to delete once that commits. What they created in others'
 * workspaces is already the owner's (created_by is cleared by its key).
 */
export async function deleteEntriesOwnedBy(db: Executor, userId: number): Promise<string[]> {
  const rows = await db.selectFrom('file_entries').select('disk_prefix').where('owner_id', '=', userId).where('disk_prefix', 'is not', null).execute();
  // Their versions go with the entries (by the foreign key); their bytes are collected first.
  const versions = await db.selectFrom('file_versions').select('disk_prefix').where('owner_id', '=', userId).execute();
  await db.deleteFrom('file_entries').where('owner_id', '=', userId).execute();
  return [...rows.map((r) => r.disk_prefix!), ...versions.map((r) => r.disk_prefix)];
}

/** The live entry named `name` directly in a folder (null: the space's root). */
// Asked before and inside every new file's transaction (a WebDAV PUT, an upload that replaces): compiled once per shape.
const childNamed = prepared(
  ({ inWorkspace, atTop }: { inWorkspace: boolean; atTop: boolean }) => `${inWorkspace ? 'w' : 'o'}${atTop ? 't' : 'p'}`,
  (db, values: { ownerId: number; workspaceId: number | null; parentId: number | null; name: string }, shape) =>
    db
      .selectFrom('file_entries')
      .selectAll()
      .where(inScope({ ownerId: values.ownerId, workspaceId: shape.inWorkspace ? values.workspaceId : null }))
      .where('parent_id', shape.atTop ? 'is' : '=', shape.atTop ? null : values.parentId)
      .where('name', '=', values.name)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .limit(1),
);

export async function liveChildNamed(db: Executor, scope: Scope, parentId: number | null, name: string): Promise<FileEntryRow | undefined> {
  const workspaceId = scope.workspaceId ?? null;
  const rows = await childNamed(db, { ownerId: scope.ownerId, workspaceId, parentId, name }, { inWorkspace: workspaceId !== null, atTop: parentId === null });
  return rows[0];
}

/** The live entries directly in a folder (null: the space's root), by name. */
export function liveChildren(db: Executor, scope: Scope, parentId: number | null): Promise<FileEntryRow[]> {
  return db
    .selectFrom('file_entries')
    .selectAll()
    .where(inScope(scope))
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/**
 * The columns a listing by name shows of each child and the access policy and
 * locks read (WebDAV's PROPFIND): a folder of ten thousand files reads and
 * keeps half the columns it would with every one.
 */
export const LISTED_COLUMNS = [
  'id',
  'hash',
  'name',
  'type',
  'mime',
  'file_size',
  'sha256',
  'path',
  'owner_id',
  'workspace_id',
  'created_at',
  'updated_at',
] as const;
export type ListedRow = Pick<FileEntryRow, (typeof LISTED_COLUMNS)[number]>;

/** `liveChildren` with only the LISTED_COLUMNS. */
export function liveChildrenListed(db: Executor, scope: Scope, parentId: number | null): Promise<ListedRow[]> {
  return db
    .selectFrom('file_entries')
    .select(LISTED_COLUMNS)
    .where(inScope(scope))
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The columns an offline manifest shows of an entry, and those the access policy reads. */
export type ManifestRow = Pick<
  FileEntryRow,
  'id' | 'hash' | 'parent_id' | 'type' | 'name' | 'mime' | 'file_size' | 'sha256' | 'updated_at' | 'owner_id' | 'workspace_id' | 'path'
>;

/**
 * The live entries strictly below `path`, parents before their children (the
 * path's byte order), at most `limit` of them: one range scan of the path
 * index, whatever the depth. A trashed folder's subtree is trashed with it
 * (trash.ts marks the whole subtree), so `deleted_at is null` is enough.
 */
export function liveDescendants(db: Executor, path: string, limit: number): Promise<ManifestRow[]> {
  return db
    .selectFrom('file_entries')
    .select(['id', 'hash', 'parent_id', 'type', 'name', 'mime', 'file_size', 'sha256', 'updated_at', 'owner_id', 'workspace_id', 'path'])
    .where(descendantsOf(path))
    .where('deleted_at', 'is', null)
    .orderBy('path')
    .limit(limit)
    .execute();
}
