import type { CachedWorkspace, UserDatabase } from '../../../offline/user-db';
import type { Workspace } from './types';

// The device's copy of the workspace list: replaced whole by each answer of
// the list call, so a workspace one left or lost disappears offline too.

export async function writeWorkspaceList(db: UserDatabase, workspaces: readonly Workspace[]): Promise<void> {
  const rows: CachedWorkspace[] = workspaces.map((w, position) => ({
    id: w.id,
    name: w.name,
    default: w.default,
    owner_id: w.owner_id,
    members_count: w.members_count,
    position,
  }));
  await db.transaction('rw', db.workspaces, async () => {
    await db.workspaces.clear();
    await db.workspaces.bulkPut(rows);
  });
}

export async function readWorkspaceList(db: UserDatabase): Promise<Workspace[] | undefined> {
  const rows = await db.workspaces.orderBy('position').toArray();
  if (rows.length === 0) return undefined;
  return rows.map(({ position: _position, ...workspace }) => workspace);
}
