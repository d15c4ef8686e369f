import { describe, expect, it } from 'vitest';
import { readWorkspaceList, writeWorkspaceList } from '../../../src/features/workspaces/api/workspace-cache';
import type { Workspace } from '../../../src/features/workspaces/api/types';
import { userDatabase } from '../../../src/offline/user-db';

const ws = (id: number, name: string, members = 1): Workspace => ({ id, name, default: id === 0, owner_id: id === 0 ? null : 1, members_count: members });

describe('the workspace list on the device', () => {
  it('keeps the server’s order and is replaced whole, so a workspace one left is gone offline too', async () => {
    const db = userDatabase('ws-cache-user');
    expect(await readWorkspaceList(db)).toBeUndefined();
    await writeWorkspaceList(db, [ws(0, 'Default'), ws(7, 'Team', 3), ws(3, 'Alpha', 2)]);
    expect((await readWorkspaceList(db))?.map((w) => w.id)).toEqual([0, 7, 3]);
    expect((await readWorkspaceList(db))?.[1]).toEqual(ws(7, 'Team', 3));
    await writeWorkspaceList(db, [ws(0, 'Default'), ws(3, 'Alpha', 2)]);
    expect((await readWorkspaceList(db))?.map((w) => w.id)).toEqual([0, 3]);
  });
});
