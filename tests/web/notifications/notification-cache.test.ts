import { describe, expect, it } from 'vitest';
import { flushPendingReads, markReadLocally, readNotifications, writeNotifications } from '../../../src/features/notifications/api/notification-cache';
import type { AppNotification } from '../../../src/features/notifications/api/types';
import { userDatabase } from '../../../src/offline/user-db';

const note = (id: string, created_at: string, read_at: string | null = null): AppNotification => ({
  id,
  type: 'file-entry-shared',
  read_at,
  created_at,
  data: { image: 'people', lines: [{ content: id }], mainAction: { label: 'Open', action: '/drive/shares' } },
});

describe('notifications on the device', () => {
  it('paints newest first and is replaced whole by each answer', async () => {
    const db = userDatabase('notif-cache-1');
    expect(await readNotifications(db)).toBeUndefined();
    // As the server answers: newest first.
    await writeNotifications(db, [note('b', '2026-11-02T00:00:00Z'), note('a', '2026-11-01T00:00:00Z')]);
    expect((await readNotifications(db))?.map((n) => n.id)).toEqual(['b', 'a']);
    await writeNotifications(db, [note('c', '2026-11-03T00:00:00Z')]);
    expect((await readNotifications(db))?.map((n) => n.id)).toEqual(['c']);
  });

  it("paints in the server's order when times tie within a millisecond (ids are random)", async () => {
    const db = userDatabase('notif-cache-3');
    const same = '2026-11-01T00:00:00.000Z';
    await writeNotifications(db, [note('b', same), note('c', same), note('a', same)]);
    expect((await readNotifications(db))?.map((n) => n.id)).toEqual(['b', 'c', 'a']);
  });

  it('keeps a mark made offline until the server has it, even across a refresh of the list', async () => {
    const db = userDatabase('notif-cache-2');
    await writeNotifications(db, [note('x', '2026-11-01T00:00:00Z')]);
    await markReadLocally(db, ['x']);
    expect((await readNotifications(db))?.[0]?.read_at).not.toBeNull();
    // The server still says unread (it has not been told): the device keeps it read.
    await writeNotifications(db, [note('x', '2026-11-01T00:00:00Z')]);
    expect((await readNotifications(db))?.[0]?.read_at).not.toBeNull();

    await expect(flushPendingReads(db, async () => Promise.reject(new Error('offline')))).rejects.toThrow('offline');
    expect(await db.pendingReads.count()).toBe(1);
    const sent: string[][] = [];
    expect(await flushPendingReads(db, async (ids) => sent.push(ids))).toBe(1);
    expect(sent).toEqual([['x']]);
    expect(await db.pendingReads.count()).toBe(0);
  });
});
