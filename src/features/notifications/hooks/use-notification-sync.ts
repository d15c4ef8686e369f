import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useBootstrap } from '../../bootstrap/store';
import { notificationKeys } from '../api/keys';
import { sendPendingReads } from '../api/mutations';
import { setUnreadCount } from '../api/unread';
import { NOTIFICATION_CLICKED, PUSH_RENEWED } from '../../../offline/notifications';
import { reregisterBrowserPush } from '../lib/push-subscription';

export const NOTIFICATION_STREAM_URL = '/api/v1/notifications/stream';

/**
 * Keeps the bell current without a reload: the server's event stream says
 * when the unread count changed (the list is refetched then), and marks made
 * offline are sent when the browser is back online.
 */
export function useNotificationSync(): void {
  const client = useQueryClient();
  const navigate = useNavigate();
  const { user, notifications } = useBootstrap();
  const userId = user?.id ?? null;
  const enabled = notifications.integrated && userId !== null;

  useEffect(() => {
    if (!enabled || userId === null) return;
    const flush = () => void sendPendingReads(userId, (count) => setUnreadCount(client, count)).catch(() => undefined);
    flush();
    window.addEventListener('online', flush);
    void reregisterBrowserPush().catch(() => undefined);
    // The worker wrote a click's mark to IndexedDB (send it now) or renewed the push subscription.
    const fromWorker = (event: MessageEvent) => {
      const type = (event.data as { type?: unknown } | null)?.type;
      if (type === NOTIFICATION_CLICKED) {
        flush();
        const url = new URL(String((event.data as { url?: unknown }).url ?? '/'), window.location.origin);
        if (url.origin === window.location.origin) void navigate(`${url.pathname}${url.search}${url.hash}`);
      }
      if (type === PUSH_RENEWED) void reregisterBrowserPush().catch(() => undefined);
    };
    navigator.serviceWorker?.addEventListener('message', fromWorker);
    let source: EventSource | null = null;
    if (typeof EventSource !== 'undefined') {
      source = new EventSource(NOTIFICATION_STREAM_URL, { withCredentials: true });
      source.addEventListener('unread', (event) => {
        const { unreadCount } = JSON.parse((event as MessageEvent<string>).data) as { unreadCount: number };
        setUnreadCount(client, unreadCount);
        void client.invalidateQueries({ queryKey: notificationKeys.list });
      });
    }
    return () => {
      window.removeEventListener('online', flush);
      navigator.serviceWorker?.removeEventListener('message', fromWorker);
      source?.close();
    };
  }, [client, enabled, userId, navigate]);
}
