import type { CachedNotification, UserDatabase } from '../../../offline/user-db';
import type { AppNotification } from './types';

// The device's copy of the first page: replaced whole by each answer, so the
// bell and the list paint offline. Marks made offline wait in `pendingReads`
// and apply to the copy at once.

export async function writeNotifications(db: UserDatabase, notifications: readonly AppNotification[]): Promise<void> {
  const pending = new Set((await db.pendingReads.toArray()).map((row) => row.id));
  await db.transaction('rw', db.notifications, async () => {
    await db.notifications.clear();
    await db.notifications.bulkPut(
      notifications.map((n, position): CachedNotification => ({ ...n, position, read_at: n.read_at ?? (pending.has(n.id) ? new Date().toISOString() : null) })),
    );
  });
}

export async function readNotifications(db: UserDatabase): Promise<AppNotification[] | undefined> {
  const rows = await db.notifications.orderBy('position').toArray();
  return rows.length ? rows.map(({ position: _position, ...notification }) => notification as AppNotification) : undefined;
}

/** Marks read on the device now; the ids wait to be sent (see flushPendingReads). */
export async function markReadLocally(db: UserDatabase, ids: string[]): Promise<void> {
  const now = new Date().toISOString();
  await db.transaction('rw', db.notifications, db.pendingReads, async () => {
    await db.pendingReads.bulkPut(ids.map((id) => ({ id })));
    for (const id of ids) await db.notifications.update(id, { read_at: now });
  });
}

/** Sends the marks made offline; they are forgotten only once the server has them. */
export async function flushPendingReads(db: UserDatabase, send: (ids: string[]) => Promise<unknown>): Promise<number> {
  const ids = (await db.pendingReads.toArray()).map((row) => row.id);
  if (!ids.length) return 0;
  await send(ids);
  await db.pendingReads.bulkDelete(ids);
  return ids.length;
}
