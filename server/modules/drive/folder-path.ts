import type { FileEntryRow } from '../../db/types.js';
import { creatorId, type Actor } from '../access/actor.js';
import { requireFolder } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import { folderLockKey, lockFolders } from '../../db/locks.js';
import { validName } from './names.js';
import { freeChildName, inScope, insertEntry, spaceOf, type Executor, type Scope } from './repository.js';

/**
 * The folder at `segments` below `parentId`, creating the missing ones — for
 * folder uploads, which keep their structure. An existing live folder of the
 * same name is reused (uploading a folder twice fills the same tree); a file
 * in the way makes the new folder take a " (1)" name.
 */
export async function ensureFolderPath(
  db: Executor,
  actor: Actor,
  rootScope: ResolvedScope,
  parentId: string | null | undefined,
  segments: string[],
): Promise<FileEntryRow | null> {
  if (!segments.length) return requireFolder(db, actor, 'files.create', rootScope, parentId, 'parentId');
  const names = segments.map((raw) => validName(raw, 'relativePath'));
  return db.transaction().execute(async (trx) => {
    const top = await requireFolder(trx, actor, 'files.create', rootScope, parentId, 'parentId');
    // The folders that already exist along the path, and the one above the first missing one, are
    // locked together (db/locks.ts); each folder this transaction creates is its own until it commits.
    const chain = await existingChain(trx, top, rootScope, names);
    await lockFolders(
      trx,
      [top, ...chain].map((folder) => folderLockKey(folder ? spaceOf(folder) : rootScope, folder?.id ?? null)),
    );
    let parent = top;
    let created = false;
    for (const name of names) {
      const scope: Scope = parent ? spaceOf(parent) : rootScope;
      const existing = created ? undefined : await liveFolderNamed(trx, scope, parent, name);
      // One that appeared while this transaction waited for its locks (its creator held the lock above,
      // and committed): newer than every folder locked so far, so taking its lock now keeps the ascending order.
      if (existing && !chain.some((folder) => folder.id === existing.id)) await lockFolders(trx, [folderLockKey(scope, existing.id)]);
      if (existing) {
        parent = existing;
        continue;
      }
      parent = await insertEntry(trx, { ownerId: scope.ownerId, workspaceId: scope.workspaceId }, parent, {
        createdBy: creatorId(actor),
        name: created ? name : await freeChildName(trx, scope, parent?.id ?? null, name, true),
        type: 'folder',
      });
      created = true;
    }
    return parent;
  });
}

/** The live folders along `names` below `top` that exist now, down to the first missing one. */
async function existingChain(db: Executor, top: FileEntryRow | null, rootScope: Scope, names: string[]): Promise<FileEntryRow[]> {
  const chain: FileEntryRow[] = [];
  let parent = top;
  for (const name of names) {
    const found = await liveFolderNamed(db, parent ? spaceOf(parent) : rootScope, parent, name);
    if (!found) break;
    chain.push(found);
    parent = found;
  }
  return chain;
}

function liveFolderNamed(db: Executor, scope: Scope, parent: FileEntryRow | null, name: string): Promise<FileEntryRow | undefined> {
  return db
    .selectFrom('file_entries')
    .selectAll()
    .where('parent_id', parent ? '=' : 'is', parent?.id ?? null)
    .where('name', '=', name)
    .where(inScope(scope))
    .where('type', '=', 'folder')
    .where('deleted_at', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
}
