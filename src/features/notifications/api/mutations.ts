import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../../api/api-error';
import { userDatabase } from '../../../offline/user-db';
import { useBootstrap } from '../../bootstrap/store';
import { notificationCalls } from './calls';
import { notificationKeys } from './keys';
import { flushPendingReads, markReadLocally } from './notification-cache';
import { setUnreadCount } from './unread';
import type { UpdateSelections } from './types';

const isOffline = (error: unknown) => error instanceof ApiError && (error.kind === 'network' || error.kind === 'timeout');

/**
 * Spec §4 "Notifications": marks read, refetches the list, and sets the local
 * unread count from the answer. Offline, the marks apply on the device at once
 * and are sent when the network returns (useFlushPendingReads).
 */
export function useMarkAsRead() {
  const client = useQueryClient();
  const { user } = useBootstrap();
  return useMutation({
    mutationFn: async (ids: string[]) => {
      const db = user ? userDatabase(user.id) : null;
      if (db) await markReadLocally(db, ids);
      try {
        const answer = await notificationCalls.markAsRead(ids);
        if (db) await db.pendingReads.bulkDelete(ids);
        return answer;
      } catch (error) {
        if (isOffline(error)) return null;
        throw error;
      }
    },
    onSuccess: async (answer) => {
      if (answer) setUnreadCount(client, answer.unreadCount);
      await client.invalidateQueries({ queryKey: notificationKeys.list });
    },
  });
}

/** Sends marks made offline (on start and whenever the browser is back online). */
export async function sendPendingReads(userId: number, onUnread: (count: number) => void): Promise<void> {
  await flushPendingReads(userDatabase(userId), async (ids) => onUnread((await notificationCalls.markAsRead(ids)).unreadCount));
}

export function useUpdateSubscriptions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (selections: UpdateSelections) => notificationCalls.updateSubscriptions(selections),
    onSuccess: () => client.invalidateQueries({ queryKey: notificationKeys.subscriptions }),
  });
}
