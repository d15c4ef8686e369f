import type { QueryClient } from '@tanstack/react-query';
import { updateBootstrap } from '../../bootstrap/store';

/** The bell's badge is the user's unread_notifications_count (spec §3 User): set it from what the server says. */
export function setUnreadCount(client: QueryClient, count: number): void {
  updateBootstrap(client, (current) =>
    current.user && current.user.unread_notifications_count !== count ? { ...current, user: { ...current.user, unread_notifications_count: count } } : current,
  );
}
