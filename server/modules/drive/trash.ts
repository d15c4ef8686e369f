import type { FileEntryRow } from '../../db/types.js';
import { noActivity, type ActivityRecorder } from '../activity/recorder.js';
import { addMs, nowIso } from '../../lib/time.js';
import { DAY } from './retention.js';
import type { Actor } from '../access/actor.js';
import { decide } from '../access/policy.js';
import { requireEntries } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import { Forbidden, ValidationError, type Message } from '../../lib/errors.js';
import type { DriveFiles } from './files.js';
import { presentByIds } from './present.js';
import { versionPrefixesOf, versionPrefixesUnder } from './versions.repository.js';
import { folderLockKey, lockFolders } from '../../db/locks.js';
import {
  adjustAncestorSizes,
  ancestorIds,
  freeChildName,
  descendantsOf,
  findById,
  findByIds,
  inScope,
  moveSubtree,
  spaceOf,
  subtreeOf,
  topmost,
  type Executor,
  type Scope,
} from './repository.js';

export interface DeleteInput {
  entryIds: string[];
  deleteForever: boolean;
  emptyTrash: boolean;
}

export interface DeleteResult {
  action: 'trashed' | 'deleted' | 'emptied';
  count: number;
  /** The spec's success line (§7), translated for the caller on the way out. */
  message: Message;
}

/**
 * Trash (spec §7 file-entries/delete). Trashing marks an entry and the live
 * part of its subtree with one `deleted_at`, the batch's mark: restoring an
 * entry brings back exactly what went to trash with it, and the tree stays as
 * it was. Deleting forever removes rows in a transaction and the bytes only
 * after it commits, so a failed delete never leaves rows without their bytes.
 *
 * Restore rule: an entry returns to its folder; if that folder is itself in
 * the trash, it goes to the nearest folder above that is not (or the root),
 * taking a " (1)"-style name if its own is taken there.
 */
export interface TrashRetention {
  /** Days an entry of this owner's stays in the trash: their plan's, else the site's `trash.keep_days`. */
  trashDays(ownerId: number): Promise<number>;
}

export class TrashService {
  constructor(
    private readonly db: Executor,
    private readonly files: DriveFiles,
    private readonly retention: TrashRetention,
    private readonly activity: ActivityRecorder = noActivity,
  ) {}

  async delete(actor: Actor, scope: ResolvedScope, input: DeleteInput): Promise<DeleteResult> {
    if (input.emptyTrash) {
      if (decide(actor, 'files.delete', scope.rootActions) !== 'allow') throw Forbidden();
      return this.emptyTrash(scope);
    }
    if (!input.entryIds.length) throw ValidationError.field('entryIds', 'Select at least one file or folder.');
    if (input.deleteForever) return this.deleteForever(actor, input.entryIds);
    return this.moveToTrash(actor, input.entryIds);
  }

  private async moveToTrash(actor: Actor, hashes: string[]): Promise<DeleteResult> {
    // Read before the transaction (the settings are another module's, read on their own connection).
    const days = new Map<number, number>();
    for (const entry of await requireEntries(this.db, actor, 'files.delete', hashes)) {
      if (!days.has(entry.owner_id)) days.set(entry.owner_id, await this.retention.trashDays(entry.owner_id));
    }
    const count = await this.db.transaction().execute(async (trx) => {
      const entries = topmost(await requireEntries(trx, actor, 'files.delete', hashes));
      for (const entry of entries) {
        const mark = await this.batchMark(trx, entry);
        // The purge time is fixed now: a later change of the setting or the plan does not move it.
        const purgeAt = addMs(mark, (days.get(entry.owner_id) ?? (await this.retention.trashDays(entry.owner_id))) * DAY);
        await trx
          .updateTable('file_entries')
          .set({ deleted_at: mark, purge_at: purgeAt })
          .where(subtreeOf(entry.path))
          .where('deleted_at', 'is', null)
          .execute();
        await adjustAncestorSizes(trx, entry.path, -entry.file_size, null);
      }
      await this.activity.record({ action: 'trashed', entries, actor }, trx);
      return entries.length;
    });
    return { action: 'trashed', count, message: { template: 'Moved :count items to trash', values: { count } } };
  }

  /**
   * A trash time later than anything already trashed inside the entry, so a
   * batch is never confused with an earlier one even within a millisecond.
   */
  private async batchMark(trx: Executor, entry: FileEntryRow): Promise<string> {
    const now = nowIso();
    const latest = await trx
      .selectFrom('file_entries')
      .select((eb) => eb.fn.max('deleted_at').as('latest'))
      .where(descendantsOf(entry.path))
      .executeTakeFirst();
    const previous = latest?.latest ? String(latest.latest) : null;
    return previous && previous >= now ? addMs(previous, 1) : now;
  }

  private async deleteForever(actor: Actor, hashes: string[]): Promise<DeleteResult> {
    const { count, prefixes } = await this.db.transaction().execute(async (trx) => {
      const entries = topmost(await requireEntries(trx, actor, 'files.delete', hashes, { trash: 'any' }));
      await this.activity.record({ action: 'purged', entries, actor }, trx);
      return { count: entries.length, prefixes: await removeForever(trx, entries) };
    });
    await this.files.deletePrefixes(prefixes);
    return { action: 'deleted', count, message: { template: 'Permanently deleted :count items', values: { count } } };
  }

  /**
   * The scheduler's pass (retention job): trashed entries whose purge time has
   * come (`purge_at <= now`, never a moment before) are deleted forever with
   * their versions and bytes, which gives their space back. Entries trashed
   * without a purge time (a deleted workspace's, or from before retention)
   * get one first, counted from when they were trashed.
   */
  async purgeExpired(now: string): Promise<number> {
    const unset = await this.db
      .selectFrom('file_entries')
      .select(['owner_id', 'deleted_at'])
      .distinct()
      .where('deleted_at', 'is not', null)
      .where('purge_at', 'is', null)
      .execute();
    for (const row of unset) {
      const purgeAt = addMs(String(row.deleted_at), (await this.retention.trashDays(row.owner_id)) * DAY);
      await this.db
        .updateTable('file_entries')
        .set({ purge_at: purgeAt })
        .where('owner_id', '=', row.owner_id)
        .where('deleted_at', '=', row.deleted_at)
        .where('purge_at', 'is', null)
        .execute();
    }
    let purged = 0;
    for (;;) {
      const { count, prefixes } = await this.db.transaction().execute(async (trx) => {
        const due = await trx
          .selectFrom('file_entries')
          .selectAll()
          .where('deleted_at', 'is not', null)
          .where('purge_at', '<=', now)
          .orderBy('purge_at')
          .orderBy('id')
          .limit(200)
          .execute();
        const entries = topmost(due);
        await this.activity.record({ action: 'purged', entries, actor: 'system' }, trx);
        return { count: entries.length, prefixes: await removeForever(trx, entries) };
      });
      await this.files.deletePrefixes(prefixes);
      purged += count;
      if (!count) return purged;
    }
  }

  private async emptyTrash(scope: Scope): Promise<DeleteResult> {
    const { count, prefixes } = await this.db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('file_entries').select(['id', 'disk_prefix']).where(inScope(scope)).where('deleted_at', 'is not', null).execute();
      const versions = await versionPrefixesOf(
        trx,
        rows.map((r) => r.id),
      );
      // Every descendant of a trashed folder is trashed too, so no live folder's size counts these.
      if (rows.length) await trx.deleteFrom('file_entries').where(inScope(scope)).where('deleted_at', 'is not', null).execute();
      return { count: rows.length, prefixes: [...rows.flatMap((r) => (r.disk_prefix ? [r.disk_prefix] : [])), ...versions] };
    });
    await this.files.deletePrefixes(prefixes);
    return { action: 'emptied', count, message: 'Emptied trash' };
  }

  async restore(actor: Actor, hashes: string[]) {
    const ids = await this.db.transaction().execute(async (trx) => {
      const selected = await requireEntries(trx, actor, 'files.delete', hashes, { trash: 'trashed' });
      // Shallow first: restoring a folder may already bring back a selected child of the same batch.
      selected.sort((a, b) => a.path.split('/').length - b.path.split('/').length);
      // The live folders they return to, locked at once (db/locks.ts); a folder restored by this batch is
      // trashed to everyone else until it commits, so nobody else adds names there.
      const targets = await Promise.all(selected.map(async (entry) => folderLockKey(spaceOf(entry), (await this.liveTarget(trx, entry))?.id ?? null)));
      await lockFolders(trx, targets);
      for (const { id } of selected) {
        const entry = (await findById(trx, id))!;
        if (entry.deleted_at === null) continue;
        await this.restoreOne(trx, entry);
        await this.activity.record({ action: 'restored', entries: [entry], actor }, trx);
      }
      return selected.map((e) => e.id);
    });
    return presentByIds(this.db, actor, ids);
  }

  /** The nearest live folder above a trashed entry (null: its space's root), where it returns to. */
  private async liveTarget(trx: Executor, entry: FileEntryRow): Promise<FileEntryRow | null> {
    const ancestors = await findByIds(trx, ancestorIds(entry.path));
    const byId = new Map(ancestors.map((a) => [a.id, a]));
    // A live folder's ancestors are all live, so the deepest live one is the nearest.
    const liveChain = ancestorIds(entry.path)
      .map((id) => byId.get(id))
      .filter((a): a is FileEntryRow => a?.deleted_at === null);
    return liveChain.at(-1) ?? null;
  }

  private async restoreOne(trx: Executor, entry: FileEntryRow): Promise<void> {
    const batch = entry.deleted_at!;
    const target = await this.liveTarget(trx, entry);
    const scope: Scope = spaceOf(entry);
    const name = await freeChildName(trx, scope, target?.id ?? null, entry.name, entry.type === 'folder');

    // Leaving: trashed folders of the same batch above it no longer hold it.
    await adjustAncestorSizes(trx, entry.path, -entry.file_size, batch);
    await trx.updateTable('file_entries').set({ deleted_at: null, purge_at: null }).where(subtreeOf(entry.path)).where('deleted_at', '=', batch).execute();
    let path = entry.path;
    if ((target?.id ?? null) !== entry.parent_id || name !== entry.name) path = await moveSubtree(trx, entry, target, name);
    await adjustAncestorSizes(trx, path, entry.file_size, null);
  }
}

/**
 * A deleted workspace's entries go to its owner's trash (they own them
 * already): each live top-level entry with its live subtree as one batch, so
 * each restores as it was; what was in the workspace's trash stays in trash.
 * Runs inside the caller's transaction.
 */
export async function trashWorkspaceEntries(trx: Executor, workspaceId: number): Promise<number> {
  const roots = await trx
    .selectFrom('file_entries')
    .select(['id', 'path'])
    .where('workspace_id', '=', workspaceId)
    .where('parent_id', 'is', null)
    .where('deleted_at', 'is', null)
    .execute();
  const mark = nowIso();
  for (const root of roots) {
    await trx.updateTable('file_entries').set({ deleted_at: mark }).where(subtreeOf(root.path)).where('deleted_at', 'is', null).execute();
  }
  await trx.updateTable('file_entries').set({ workspace_id: null }).where('workspace_id', '=', workspaceId).execute();
  return roots.length;
}

/**
 * Deletes entries and everything below them forever, inside the caller's
 * transaction; answers the storage folders (theirs and their versions') to
 * delete after the commit. Versions' rows go by the foreign key.
 */
async function removeForever(trx: Executor, entries: FileEntryRow[]): Promise<string[]> {
  const prefixes: string[] = [];
  for (const entry of entries) {
    const rows = await trx.selectFrom('file_entries').select('disk_prefix').where(subtreeOf(entry.path)).execute();
    for (const row of rows) if (row.disk_prefix) prefixes.push(row.disk_prefix);
    prefixes.push(...(await versionPrefixesUnder(trx, entry.path)));
    await adjustAncestorSizes(trx, entry.path, -entry.file_size, entry.deleted_at);
    await trx.deleteFrom('file_entries').where(subtreeOf(entry.path)).execute();
  }
  return prefixes;
}
