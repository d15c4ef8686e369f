import type { Actor } from '../access/actor.js';
import { noActivity, type ActivityRecorder } from '../activity/recorder.js';
import { userIdOf } from '../access/actor.js';
import { requireEntries, requireEntry, requireFolder, requireRoot, requireRows } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import { listFilter } from '../access/scope.js';
import { decide, deliveryAction } from '../access/policy.js';
import type { FileEntryRow } from '../../db/types.js';
import { Forbidden, NameTaken, ValidationError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import { randomToken } from '../../lib/tokens.js';
import type { DriveFiles } from './files.js';
import { newStorageLocation } from './files.js';
import { validExactName } from './names.js';
import { folderLockKey, lockFolders } from '../../db/locks.js';
import { presentByIds } from './present.js';
import { presentCrumb } from './presenter.js';
import type { QuotaService } from './quota.js';
import {
  adjustAncestorSizes,
  ancestorIds,
  bytesCharged,
  freeChildName,
  nameTaken,
  findById,
  findByIds,
  insertEntry,
  moveSubtree,
  payerOf,
  sameSpace,
  spaceOf,
  storageKey,
  subtreeRows,
  topmost,
  type Executor,
} from './repository.js';
import type { SpaceLimits } from './space-limits.js';
import { scopeUnder } from './scope-under.js';
import type { ContentChanged } from './content-changed.js';

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
    private readonly newContent: Pick<ContentChanged, 'queue'>,
    private readonly quota: QuotaService,
    private readonly limits: SpaceLimits,
    private readonly activity: ActivityRecorder = noActivity,
  ) {}

  async createFolder(actor: Actor, scope: ResolvedScope, input: { name: string; parentId?: string | null }) {
    const id = await this.db.transaction().execute(async (trx) => {
      const parent = await requireFolder(trx, actor, 'files.create', scope, input.parentId, 'parentId');
      const where = scopeUnder(parent, scope);
      await lockFolders(trx, [folderLockKey(where, parent?.id ?? null)]);
      if (await nameTaken(trx, where, parent?.id ?? null, input.name)) throw NameTaken(input.name);
      const folder = await insertEntry(trx, where, parent, { name: input.name, type: 'folder', createdBy: userIdOf(actor) });
      await this.activity.record({ action: 'created', entries: [folder], actor }, trx);
      return folder.id;
    });
    return (await presentByIds(this.db, actor, [id]))[0]!;
  }

  async update(actor: Actor, hash: string, input: { name?: string; description?: string | null }) {
    const id = await this.db.transaction().execute(async (trx) => {
      const entry = await requireEntry(trx, actor, 'files.update', hash);
      if (input.name !== undefined && input.name !== entry.name) {
        await lockFolders(trx, [folderLockKey(spaceOf(entry), entry.parent_id)]);
        if (await nameTaken(trx, spaceOf(entry), entry.parent_id, input.name)) throw NameTaken(input.name);
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
      if (input.name !== undefined && input.name !== entry.name)
        await this.activity.record({ action: 'renamed', entries: [{ ...entry, name: input.name }], actor, details: { from: entry.name, to: input.name } }, trx);
      return entry.id;
    });
    return (await presentByIds(this.db, actor, [id]))[0]!;
  }

  /** Moving takes update on the entries and on the destination (a folder, or the scope's root). */
  async move(actor: Actor, scope: ResolvedScope, hashes: string[], destinationId: string | null | undefined) {
    const ids = await this.db.transaction().execute(async (trx) => {
      const destination = await requireFolder(trx, actor, 'files.update', scope, destinationId, 'destinationId');
      const entries = topmost(await requireEntries(trx, actor, 'files.update', hashes));
      refuseIntoItself(entries, destination);
      // An entry's space decides who owns and pays for it; moving would change both behind the user's back.
      const target = scopeUnder(destination, scope);
      if (entries.some((entry) => !sameSpace(spaceOf(entry), target)))
        throw ValidationError.field('destinationId', 'Items can only be moved within the same workspace. Copy them instead.');
      await lockFolders(trx, [folderLockKey(target, destination?.id ?? null)]);
      for (const entry of entries) {
        const parentId = destination?.id ?? null;
        if (entry.parent_id === parentId) continue;
        const name = await freeChildName(trx, target, parentId, entry.name, entry.type === 'folder');
        await adjustAncestorSizes(trx, entry.path, -entry.file_size, null);
        const newPath = await moveSubtree(trx, entry, destination, name);
        await adjustAncestorSizes(trx, newPath, entry.file_size, null);
        await this.activity.record({ action: 'moved', entries: [{ ...entry, name }], actor, details: { to: destination?.name ?? null } }, trx);
      }
      return entries.map((e) => e.id);
    });
    return presentByIds(this.db, actor, ids);
  }

  /**
   * Deep copies with new storage objects. Bytes are copied first; the rows
   * follow in one transaction, and a failure removes the copied bytes.
   * Without a destination each copy lands beside its original. A copy reads
   * the bytes, so the sources need download; the destination needs create.
   */
  async duplicate(actor: Actor, scope: ResolvedScope, hashes: string[], destinationId: string | null | undefined, rename?: string) {
    const { roots } = await this.copyEntries(actor, scope, hashes, destinationId, rename);
    return presentByIds(
      this.db,
      actor,
      roots.map((r) => r.id),
    );
  }

  /**
   * duplicate's work: the top copies, and every copied row as a pair of ids
   * (original, copy), so that what other modules keep per entry (WebDAV's
   * dead properties) can follow the copy.
   */
  async copyEntries(
    actor: Actor,
    scope: ResolvedScope,
    hashes: string[],
    destinationId: string | null | undefined,
    rename?: string,
  ): Promise<{ roots: FileEntryRow[]; pairs: [from: number, to: number][] }> {
    const explicit = destinationId !== undefined && destinationId !== null;
    const destination = explicit ? await requireFolder(this.db, actor, 'files.create', scope, destinationId, 'destinationId') : null;
    const entries = topmost(await requireEntries(this.db, actor, deliveryAction('file'), hashes));
    if (explicit) refuseIntoItself(entries, destination);
    else await this.requireCreateBeside(actor, entries);

    const plans: { entry: FileEntryRow; rows: FileEntryRow[]; locations: Map<number, { diskPrefix: string; fileName: string }> }[] = [];
    const newPrefixes: string[] = [];
    const subtrees = new Map<number, FileEntryRow[]>();
    for (const entry of entries)
      subtrees.set(
        entry.id,
        (await subtreeRows(this.db, entry.path)).filter((r) => r.deleted_at === null),
      );
    // Copies take space like uploads do: reserved first (atomically, against uploads in flight) from
    // whoever pays for the space each copy lands in, and released once stored.
    const bytesByPayer = new Map<number, number>();
    for (const entry of entries) {
      const payer = payerOf(explicit ? scopeUnder(destination, scope) : spaceOf(entry));
      const bytes = subtrees.get(entry.id)!.reduce((sum, row) => sum + (row.type === 'folder' ? 0 : Number(row.file_size)), 0);
      bytesByPayer.set(payer, (bytesByPayer.get(payer) ?? 0) + bytes);
    }
    const reservations: string[] = [];
    try {
      for (const [payer, bytes] of bytesByPayer) {
        const key = `copy-${randomToken(18)}`;
        await this.quota.reserve({ payerId: payer, uploaderId: userIdOf(actor), available: await this.limits.availableTo(actor, payer) }, key, bytes, 'copy');
        reservations.push(key);
      }
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
        // Every folder this copy adds names to, locked at once (db/locks.ts); the copies' own folders are new and need none.
        await lockFolders(
          trx,
          plans.map(({ entry }) =>
            explicit ? folderLockKey(scopeUnder(destination, scope), destination?.id ?? null) : folderLockKey(spaceOf(entry), entry.parent_id),
          ),
        );
        const roots: FileEntryRow[] = [];
        const all: FileEntryRow[] = [];
        const pairs: [number, number][] = [];
        for (const { entry, rows, locations } of plans) {
          const parent = explicit
            ? await requireFolder(trx, actor, 'files.create', scope, destinationId, 'destinationId')
            : entry.parent_id
              ? ((await findById(trx, entry.parent_id)) ?? null)
              : null;
          const where = explicit ? scopeUnder(parent, scope) : scopeUnder(parent, spaceOf(entry));
          const copies = new Map<number, FileEntryRow>();
          for (const row of rows) {
            const isRoot = row.id === entry.id;
            const copyParent = isRoot ? parent : copies.get(row.parent_id!)!;
            const wanted = isRoot && rename !== undefined ? validExactName(rename) : row.name;
            const name = isRoot ? await freeChildName(trx, where, parent?.id ?? null, wanted, row.type === 'folder') : row.name;
            const location = locations.get(row.id);
            const copy = await insertEntry(trx, where, copyParent, {
              createdBy: userIdOf(actor),
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
            pairs.push([row.id, copy.id]);
            if (isRoot) roots.push(copy);
          }
          const root = copies.get(entry.id)!;
          await adjustAncestorSizes(trx, root.path, Number(root.file_size), null);
          await this.activity.record({ action: 'copied', entries: [root], actor, details: { from: entry.name } }, trx);
        }
        return { roots, all, pairs };
      });
      for (const copy of created.all) this.newContent.queue(copy);
      return { roots: created.roots, pairs: created.pairs };
    } catch (error) {
      await this.files.deletePrefixes(newPrefixes).catch(() => undefined);
      throw error;
    } finally {
      for (const key of reservations) await this.quota.release(key);
    }
  }

  /**
   * One entry to a folder under the given name (a WebDAV MOVE, which may
   * rename in the same step): update on the entry and on the destination,
   * within its space, and the name must be free there.
   */
  async moveTo(actor: Actor, scope: ResolvedScope, hash: string, destinationId: string | null, newName: string): Promise<void> {
    const name = validExactName(newName);
    await this.db.transaction().execute(async (trx) => {
      const destination = await requireFolder(trx, actor, 'files.update', scope, destinationId, 'destinationId');
      const entry = await requireEntry(trx, actor, 'files.update', hash);
      refuseIntoItself([entry], destination);
      const target = scopeUnder(destination, scope);
      if (!sameSpace(spaceOf(entry), target))
        throw ValidationError.field('destinationId', 'Items can only be moved within the same workspace. Copy them instead.');
      const parentId = destination?.id ?? null;
      if (entry.parent_id === parentId && entry.name === name) return;
      await lockFolders(trx, [folderLockKey(target, parentId)]);
      if (await nameTaken(trx, target, parentId, name)) throw NameTaken(name);
      const size = Number(entry.file_size);
      await adjustAncestorSizes(trx, entry.path, -size, null);
      const newPath = await moveSubtree(trx, entry, destination, name);
      await adjustAncestorSizes(trx, newPath, size, null);
      await trx.updateTable('file_entries').set({ updated_at: nowIso() }).where('id', '=', entry.id).execute();
      const renamed = { ...entry, name };
      if (entry.parent_id !== parentId)
        await this.activity.record({ action: 'moved', entries: [renamed], actor, details: { to: destination?.name ?? null } }, trx);
      if (entry.name !== name) await this.activity.record({ action: 'renamed', entries: [renamed], actor, details: { from: entry.name, to: name } }, trx);
    });
  }

  /** A star is the caller's own mark: seeing the entry is enough. */
  async star(actor: Actor, hashes: string[]) {
    const userId = userIdOf(actor);
    const entries = await requireEntries(this.db, actor, 'files.view', hashes, { trash: 'any' });
    const now = nowIso();
    await this.db
      .insertInto('file_entry_stars')
      .values(entries.map((e) => ({ user_id: userId, entry_id: e.id, created_at: now })))
      .onConflict((oc) => oc.columns(['user_id', 'entry_id']).doNothing())
      .execute();
    return presentByIds(
      this.db,
      actor,
      entries.map((e) => e.id),
    );
  }

  async unstar(actor: Actor, hashes: string[]) {
    const userId = userIdOf(actor);
    const entries = await requireEntries(this.db, actor, 'files.view', hashes, { trash: 'any' });
    await this.db
      .deleteFrom('file_entry_stars')
      .where('user_id', '=', userId)
      .where(
        'entry_id',
        'in',
        entries.map((e) => e.id),
      )
      .execute();
    return presentByIds(
      this.db,
      actor,
      entries.map((e) => e.id),
    );
  }

  /** One entry (trashed ones too) with the folders above it, root first. */
  async details(actor: Actor, hash: string) {
    const entry = await requireEntry(this.db, actor, 'files.view', hash, { trash: 'any' });
    const [presented] = await presentByIds(this.db, actor, [entry.id]);
    return { ...presented!, path: await this.crumbs(ancestorIds(entry.path)) };
  }

  /** Breadcrumbs from the root down to the folder itself; '0' (the root) has none. */
  async folderPath(actor: Actor, scope: ResolvedScope, hash: string) {
    const folder = await requireFolder(this.db, actor, 'files.view', scope, hash, 'hash');
    return folder ? this.crumbs(folder.path.split('/').map(Number)) : [];
  }

  /** Every live folder of the scope, flat, for the move dialog's tree. */
  async folderTree(actor: Actor, scope: ResolvedScope) {
    if (decide(actor, 'files.view', scope.rootActions) !== 'allow') throw Forbidden();
    const rows = await this.db
      .selectFrom('file_entries')
      .leftJoin('file_entries as parent', 'parent.id', 'file_entries.parent_id')
      .select(['file_entries.hash', 'file_entries.name', 'parent.hash as parent_hash'])
      .where(listFilter(actor, scope, 'folder'))
      .where('file_entries.type', '=', 'folder')
      .where('file_entries.deleted_at', 'is', null)
      .orderBy('file_entries.path')
      .execute();
    return rows.map((r) => ({ id: r.hash, hash: r.hash, name: r.name, parent_id: r.parent_hash }));
  }

  /**
   * Bytes the space's payer is charged for (trash included) and may store; null means unlimited.
   * Personal space: the caller. A workspace: its owner, whose space its uploads fill (the scope
   * was resolved against the caller's membership, so a stranger never gets here).
   */
  async spaceUsage(actor: Actor, scope: ResolvedScope): Promise<{ used: number; available: number | null }> {
    const payerId = scope.workspaceId ? scope.ownerId : userIdOf(actor);
    return { used: await bytesCharged(this.db, payerId), available: await this.limits.availableTo(actor, payerId) };
  }

  /** Copies beside their originals need create in each original's folder (or its space's root). */
  private async requireCreateBeside(actor: Actor, entries: FileEntryRow[]): Promise<void> {
    const parents = await findByIds(this.db, [...new Set(entries.flatMap((e) => (e.parent_id === null ? [] : [e.parent_id])))]);
    await requireRows(this.db, actor, 'files.create', parents);
    for (const entry of entries.filter((e) => e.parent_id === null)) await requireRoot(this.db, actor, 'files.create', spaceOf(entry));
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
