import path from 'node:path';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { createNameSearch } from '../../db/search.js';
import type { FileEntryRow } from '../../db/types.js';
import { HttpError, ValidationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import { LocalDisk } from '../../storage/local-disk.js';
import type { Disk } from '../../storage/disk.js';
import { restriction } from '../permissions/policy.js';
import type { SettingsService } from '../settings/service.js';
import type { UserWithAccess } from '../users/repository.js';
import { authorize, resolveFolder, visibleEntries, visibleEntry } from './access.js';
import { DriveFiles, newStorageLocation } from './files.js';
import { DriveListing, presentByIds } from './listing.js';
import { freeName } from './names.js';
import { presentCrumb } from './presenter.js';
import {
  adjustAncestorSizes,
  ancestorIds,
  childNames,
  findById,
  findByIds,
  inScope,
  insertEntry,
  moveSubtree,
  storageKey,
  subtreeRows,
  topmost,
  type Executor,
  type Scope,
} from './repository.js';
import { randomToken } from '../../lib/tokens.js';
import { QuotaService } from './quota.js';
import { Thumbnails } from './thumbnails.js';
import { TrashService } from './trash.js';

const entryScope = (entry: FileEntryRow): Scope => ({ ownerId: entry.owner_id, workspaceId: entry.workspace_id });

/** Where a folder's new child lives: inside a folder, the folder's space; at the root, the caller's. */
const scopeUnder = (parent: FileEntryRow | null, fallback: Scope): Scope => (parent ? entryScope(parent) : fallback);

const INTO_ITSELF = 'A folder cannot be moved or copied into itself or one of its subfolders.';

/**
 * Organising the drive: folders, renames, moves, copies, stars, details and
 * space usage. Name clashes: a name the user types (new folder, rename) that
 * is taken in its folder is refused with 409 and a field error; entries that
 * arrive in a folder by move, copy, restore or upload keep their name when it
 * is free and otherwise get the first free " (1)"-style suffix, so a batch
 * never fails halfway over a name.
 */
export class DriveService {
  constructor(
    private readonly db: Executor,
    private readonly files: DriveFiles,
    private readonly thumbnails: Thumbnails,
    private readonly settings: SettingsService,
    private readonly quota: QuotaService,
  ) {}

  async createFolder(user: UserWithAccess, scope: Scope, input: { name: string; parentId?: string | null }) {
    authorize(user, 'files.create');
    const id = await this.db.transaction().execute(async (trx) => {
      const parent = await resolveFolder(trx, user, input.parentId, 'parentId');
      const where = scopeUnder(parent, scope);
      if ((await childNames(trx, where, parent?.id ?? null)).has(input.name)) throw nameTaken(input.name);
      return (await insertEntry(trx, where, parent, { name: input.name, type: 'folder' })).id;
    });
    return (await presentByIds(this.db, user.id, [id]))[0]!;
  }

  async update(user: UserWithAccess, hash: string, input: { name?: string; description?: string | null }) {
    authorize(user, 'files.update');
    const id = await this.db.transaction().execute(async (trx) => {
      const entry = await visibleEntry(trx, user, hash);
      if (input.name !== undefined && input.name !== entry.name) {
        const taken = await childNames(trx, entryScope(entry), entry.parent_id);
        if (taken.has(input.name)) throw nameTaken(input.name);
      }
      await trx
        .updateTable('file_entries')
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.description !== undefined ? { description: input.description || null } : {}),
          updated_at: nowIso(),
        })
        .where('id', '=', entry.id)
        .execute();
      return entry.id;
    });
    return (await presentByIds(this.db, user.id, [id]))[0]!;
  }

  async move(user: UserWithAccess, hashes: string[], destinationId: string | null | undefined) {
    authorize(user, 'files.update');
    const ids = await this.db.transaction().execute(async (trx) => {
      const destination = await resolveFolder(trx, user, destinationId, 'destinationId');
      const entries = topmost(await visibleEntries(trx, user, hashes));
      refuseIntoItself(entries, destination);
      for (const entry of entries) {
        const parentId = destination?.id ?? null;
        if (entry.parent_id === parentId) continue;
        const name = freeName(entry.name, entry.type === 'folder', await childNames(trx, scopeUnder(destination, entryScope(entry)), parentId));
        await adjustAncestorSizes(trx, entry.path, -entry.file_size, null);
        const newPath = await moveSubtree(trx, entry, destination, name);
        await adjustAncestorSizes(trx, newPath, entry.file_size, null);
      }
      return entries.map((e) => e.id);
    });
    return presentByIds(this.db, user.id, ids);
  }

  /**
   * Deep copies with new storage objects. Bytes are copied first; the rows
   * follow in one transaction, and a failure removes the copied bytes.
   * Without a destination each copy lands beside its original.
   */
  async duplicate(user: UserWithAccess, hashes: string[], destinationId: string | null | undefined) {
    authorize(user, 'files.create');
    const explicit = destinationId !== undefined && destinationId !== null;
    const destination = explicit ? await resolveFolder(this.db, user, destinationId, 'destinationId') : null;
    const entries = topmost(await visibleEntries(this.db, user, hashes));
    if (explicit) refuseIntoItself(entries, destination);

    const plans: { entry: FileEntryRow; rows: FileEntryRow[]; locations: Map<number, { diskPrefix: string; fileName: string }> }[] = [];
    const newPrefixes: string[] = [];
    const subtrees = new Map<number, FileEntryRow[]>();
    for (const entry of entries) subtrees.set(entry.id, (await subtreeRows(this.db, entry.path)).filter((r) => r.deleted_at === null));
    // Copies take space like uploads do: reserved first (atomically, against uploads in flight), released once stored.
    const bytes = [...subtrees.values()].flat().reduce((sum, row) => sum + (row.type === 'folder' ? 0 : Number(row.file_size)), 0);
    const reservation = `copy-${randomToken(18)}`;
    await this.quota.reserve(user.id, (await this.spaceUsage(user)).available, reservation, bytes, 'copy');
    try {
      for (const entry of entries) {
        const rows = subtrees.get(entry.id)!;
        rows.sort((a, b) => a.path.split('/').length - b.path.split('/').length);
        const locations = new Map<number, { diskPrefix: string; fileName: string }>();
        for (const row of rows) {
          const from = storageKey(row);
          if (!from) continue;
          const location = newStorageLocation();
          newPrefixes.push(location.diskPrefix);
          await this.files.copyBytes(from, `${location.diskPrefix}/${location.fileName}`);
          locations.set(row.id, location);
        }
        plans.push({ entry, rows, locations });
      }

      const created = await this.db.transaction().execute(async (trx) => {
        const roots: FileEntryRow[] = [];
        const all: FileEntryRow[] = [];
        for (const { entry, rows, locations } of plans) {
          const parent = explicit ? await resolveFolder(trx, user, destinationId, 'destinationId') : entry.parent_id ? ((await findById(trx, entry.parent_id)) ?? null) : null;
          const scope = scopeUnder(parent, entryScope(entry));
          const copies = new Map<number, FileEntryRow>();
          for (const row of rows) {
            const isRoot = row.id === entry.id;
            const copyParent = isRoot ? parent : copies.get(row.parent_id!)!;
            const name = isRoot ? freeName(row.name, row.type === 'folder', await childNames(trx, scope, parent?.id ?? null)) : row.name;
            const location = locations.get(row.id);
            const copy = await insertEntry(trx, scope, copyParent, {
              name,
              type: row.type,
              mime: row.mime,
              extension: row.extension,
              fileSize: Number(row.file_size),
              description: row.description,
              sha256: row.sha256,
              diskPrefix: location?.diskPrefix ?? null,
              fileName: location?.fileName ?? null,
            });
            copies.set(row.id, copy);
            all.push(copy);
            if (isRoot) roots.push(copy);
          }
          const root = copies.get(entry.id)!;
          await adjustAncestorSizes(trx, root.path, Number(root.file_size), null);
        }
        return { roots, all };
      });
      for (const copy of created.all) this.thumbnails.queue(copy);
      return presentByIds(this.db, user.id, created.roots.map((r) => r.id));
    } catch (error) {
      await this.files.deletePrefixes(newPrefixes).catch(() => undefined);
      throw error;
    } finally {
      await this.quota.release(reservation);
    }
  }

  async star(user: UserWithAccess, hashes: string[]) {
    const entries = await visibleEntries(this.db, user, hashes, 'any');
    const now = nowIso();
    await this.db
      .insertInto('file_entry_stars')
      .values(entries.map((e) => ({ user_id: user.id, entry_id: e.id, created_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'entry_id']).doNothing())
      .execute();
    return presentByIds(this.db, user.id, entries.map((e) => e.id));
  }

  async unstar(user: UserWithAccess, hashes: string[]) {
    const entries = await visibleEntries(this.db, user, hashes, 'any');
    await this.db
      .deleteFrom('file_entry_stars')
      .where('user_id', '=', user.id)
      .where('entry_id', 'in', entries.map((e) => e.id))
      .execute();
    return presentByIds(this.db, user.id, entries.map((e) => e.id));
  }

  /** One entry (trashed ones too) with the folders above it, root first. */
  async details(user: UserWithAccess, hash: string) {
    authorize(user, 'files.view');
    const entry = await visibleEntry(this.db, user, hash, 'any');
    const [presented] = await presentByIds(this.db, user.id, [entry.id]);
    return { ...presented!, path: await this.crumbs(ancestorIds(entry.path)) };
  }

  /** Breadcrumbs from the root down to the folder itself; '0' (the root) has none. */
  async folderPath(user: UserWithAccess, hash: string) {
    authorize(user, 'files.view');
    const folder = await resolveFolder(this.db, user, hash, 'hash');
    return folder ? this.crumbs(folder.path.split('/').map(Number)) : [];
  }

  /** Every live folder of the user, flat, for the move dialog's tree. */
  async folderTree(user: UserWithAccess, scope: Scope) {
    authorize(user, 'files.view');
    const rows = await this.db
      .selectFrom('file_entries')
      .leftJoin('file_entries as parent', 'parent.id', 'file_entries.parent_id')
      .select(['file_entries.hash', 'file_entries.name', 'parent.hash as parent_hash'])
      .where(inScope(scope))
      .where('file_entries.type', '=', 'folder')
      .where('file_entries.deleted_at', 'is', null)
      .orderBy('file_entries.path')
      .execute();
    return rows.map((r) => ({ id: r.hash, hash: r.hash, name: r.name, parent_id: r.parent_hash }));
  }

  /**
   * Bytes used (files in trash included: they still take space until deleted
   * forever) and available: the user's `files.create` max_space restriction,
   * else the `uploads.available_space` setting; null means unlimited.
   */
  async spaceUsage(user: UserWithAccess): Promise<{ used: number; available: number | null }> {
    const row = await this.db
      .selectFrom('file_entries')
      .select((eb) => eb.fn.sum<number | string | null>('file_size').as('used'))
      .where('owner_id', '=', user.id)
      .where('type', '!=', 'folder')
      .executeTakeFirst();
    const own = restriction(user, 'files.create', 'max_space');
    const fromUser = own === null || own === undefined || own === '' ? null : Number(own);
    const setting = await this.settings.get('uploads.available_space');
    const available = fromUser !== null && Number.isFinite(fromUser) ? fromUser : typeof setting === 'number' ? setting : null;
    return { used: Number(row?.used ?? 0), available };
  }

  private async crumbs(ids: number[]) {
    const rows = await findByIds(this.db, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => (byId.has(id) ? [presentCrumb(byId.get(id)!)] : []));
  }
}

function refuseIntoItself(entries: FileEntryRow[], destination: FileEntryRow | null): void {
  if (!destination) return;
  if (entries.some((e) => e.id === destination.id || destination.path.startsWith(`${e.path}/`))) {
    throw ValidationError.field('destinationId', INTO_ITSELF);
  }
}

function nameTaken(name: string) {
  const message = { template: 'An item named ":name" already exists in this folder.', values: { name } };
  return new HttpError(409, message, { name: [message] }, 'CONFLICT');
}

/** The drive's services, built once per app (see services.ts). */
export function createDrive(db: Db, config: Config, settings: SettingsService, log: { warn(object: object, message: string): void }) {
  const disk: Disk = new LocalDisk(path.join(config.storageDir, 'drive'));
  const thumbnails = new Thumbnails(db.kysely, disk, log);
  const files = new DriveFiles(db.kysely, disk, thumbnails);
  const quota = new QuotaService(db.kysely, db.dialect);
  return {
    db: db.kysely,
    disk,
    thumbnails,
    files,
    listing: new DriveListing(db.kysely, createNameSearch(db.dialect)),
    entries: new DriveService(db.kysely, files, thumbnails, settings, quota),
    quota,
    trash: new TrashService(db.kysely, files),
  };
}

export type Drive = ReturnType<typeof createDrive>;
