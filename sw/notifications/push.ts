/// <reference lib="webworker" />
import type { SessionStore } from '../../src/offline/queues/session';
import { userDatabase } from '../../src/offline/user-db';
import { NOTIFICATION_CLICKED, parsePushPayload, PUSH_RENEWED, showUnreadBadge, targetUrl } from '../../src/offline/notifications';

/**
 * The browser channel (spec §4): a push shows a system notification; a click
 * focuses an open window of the app on its address (or opens one) and marks
 * the notification read. The mark is written to the user's IndexedDB
 * (pendingReads), which the page sends when it runs and is online, so a
 * click made offline is not lost.
 */
export function registerPushHandlers(self: ServiceWorkerGlobalScope, session: SessionStore): void {
  self.addEventListener('push', (event) => {
    const payload = parsePushPayload(event.data?.text() ?? null);
    if (!payload) return;
    event.waitUntil(
      Promise.all([
        self.registration.showNotification(payload.title, {
          body: payload.body,
          icon: payload.icon,
          tag: payload.tag,
          data: { id: payload.id, url: payload.url },
        }),
        // No page may be open to hear it: the icon's badge follows the push itself.
        payload.unreadCount === undefined ? undefined : showUnreadBadge(self.navigator, payload.unreadCount),
      ]),
    );
  });

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = (event.notification.data ?? {}) as { id?: unknown; url?: unknown };
    const url = targetUrl(typeof data.url === 'string' ? data.url : '/', self.location.origin);
    const id = typeof data.id === 'string' ? data.id : null;
    event.waitUntil(
      (async () => {
        const userId = await session.userId();
        if (id && userId) {
          const db = userDatabase(userId);
          await db.pendingReads.put({ id });
          await db.notifications.update(id, { read_at: new Date().toISOString() });
        }
        const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const open = windows.find((client) => new URL(client.url).origin === self.location.origin) as WindowClient | undefined;
        if (open) {
          await open.focus();
          open.postMessage({ type: NOTIFICATION_CLICKED, url });
          return;
        }
        await self.clients.openWindow(url);
      })(),
    );
  });

  // The push service replaced the subscription: subscribe again if it did not hand over a new one, and
  // ask open pages to tell the server (the page also re-registers the current one whenever it starts).
  self.addEventListener('pushsubscriptionchange', (event) => {
    const change = event as ExtendableEvent & { newSubscription?: PushSubscription | null; oldSubscription?: PushSubscription | null };
    change.waitUntil(
      (async () => {
        if (!change.newSubscription && change.oldSubscription) await self.registration.pushManager.subscribe(change.oldSubscription.options);
        for (const client of await self.clients.matchAll({ type: 'window', includeUncontrolled: true })) client.postMessage({ type: PUSH_RENEWED });
      })().catch(() => undefined),
    );
  });
}
