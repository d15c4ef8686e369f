import type { FileEntryRow } from '../../db/types.js';
import { creatorId, type Actor } from '../access/actor.js';
import { requireFolder } from '../access/require.js';
import type { ResolvedScope } from '../access/scope.js';
import { freeName, validName } from './names.js';
import { childNames, inScope, insertEntry, spaceOf, type Executor, type Scope } from './repository.js';

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
  return db.transaction().execute(async (trx) => {
    let parent = await requireFolder(trx, actor, 'files.create', rootScope, parentId, 'parentId');
    for (const raw of segments) {
      const name = validName(raw, 'relativePath');
      const scope: Scope = parent ? spaceOf(parent) : rootScope;
      const existing = await trx
        .selectFrom('file_entries')
        .selectAll()
        .where(inScope(scope))
        .where('parent_id', parent ? '=' : 'is', parent?.id ?? null)
        .where('name', '=', name)
        .where('type', '=', 'folder')
        .where('deleted_at', 'is', null)
        .orderBy('id')
        .executeTakeFirst();
      parent =
        existing ??
        (await insertEntry(trx, { ownerId: scope.ownerId, workspaceId: scope.workspaceId }, parent, {
          createdBy: creatorId(actor),
          name: freeName(name, true, await childNames(trx, scope, parent?.id ?? null)),
          type: 'folder',
        }));
    }
    return parent;
  });
}
