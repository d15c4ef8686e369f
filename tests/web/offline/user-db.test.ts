import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { readNotifications, writeNotifications } from '../../../src/features/notifications/api/notification-cache';
import { driveDatabase } from '../../../src/offline/db';
import { UserDatabase, userDatabase, userDatabaseName } from '../../../src/offline/user-db';

describe('the per-user database', () => {
  it('keeps notifications and drafts per user, apart from the per-workspace drive copy', async () => {
    const mine = userDatabase('u1');
    const theirs = userDatabase('u2');
    expect(userDatabase('u1')).toBe(mine);
    expect(mine.name).toBe(userDatabaseName('u1'));
    expect(mine.name).not.toBe(driveDatabase('u1', 0).name);

    await mine.drafts.put({ entryId: 'doc1', content: { ops: [] }, baseEtag: '"abc"', updatedAt: 1 });
    await mine.notifications.put({
      id: 'n1',
      type: 'workspace_invitation',
      data: { inviteId: 'i' },
      read_at: null,
      created_at: '2026-11-23T00:00:00Z',
      position: 0,
    });
    expect(await mine.drafts.get('doc1')).toMatchObject({ baseEtag: '"abc"' });
    expect(await theirs.drafts.count()).toBe(0);
    expect(await theirs.notifications.count()).toBe(0);
  });

  it('drops the notifications copy of a device on the previous version (no order kept), and keeps its drafts', async () => {
    const name = userDatabaseName('upgraded');
    const before = new Dexie(name);
    before.version(4).stores({
      notifications: '&id, created_at, read_at',
      drafts: '&entryId, updatedAt',
      workspaces: '&id, position',
      pendingReads: '&id',
      documents: '&entryId',
    });
    await before.table('notifications').put({ id: 'n1', type: 'file-entry-shared', data: {}, read_at: null, created_at: '2026-11-23T00:00:00Z' });
    await before.table('drafts').put({ entryId: 'doc1', content: { ops: [] }, baseEtag: '"abc"', updatedAt: 1 });
    before.close();

    const after = new UserDatabase(name);
    expect(await after.notifications.count()).toBe(0);
    expect(await after.drafts.get('doc1')).toMatchObject({ baseEtag: '"abc"' });
    const note = {
      type: 'file-entry-shared',
      read_at: null,
      created_at: '2026-11-23T00:00:00Z',
      data: { image: '', lines: [], mainAction: { label: '', action: '/' } },
    };
    await writeNotifications(after, [
      { ...note, id: 'n2' },
      { ...note, id: 'n1' },
    ]);
    expect((await readNotifications(after))?.map((n) => n.id)).toEqual(['n2', 'n1']);
    after.close();
  });
});
