import { useQuery } from '@tanstack/react-query';
import { usePaintFirst } from '../../../offline/paint-first';
import { userDatabase } from '../../../offline/user-db';
import { useBootstrap } from '../../bootstrap/store';
import { notificationCalls } from './calls';
import { notificationKeys, notificationListMeta } from './keys';
import { readNotifications, writeNotifications } from './notification-cache';
import type { AppNotification } from './types';

export interface NotificationList {
  notifications: AppNotification[];
  fromCache: boolean;
  isLoading: boolean;
  isError: boolean;
}

/** The newest page (spec §9: 30), painted from IndexedDB first and kept there for offline visits. */
export function useNotifications(enabled = true): NotificationList {
  const { user } = useBootstrap();
  const db = user ? userDatabase(user.id) : null;
  const query = useQuery({
    queryKey: notificationKeys.list,
    meta: notificationListMeta,
    enabled: enabled && !!db,
    queryFn: async ({ signal }) => {
      const { pagination } = await notificationCalls.list(1, signal);
      if (db) await writeNotifications(db, pagination.data);
      return pagination.data;
    },
  });
  const shown = usePaintFirst(() => (db ? readNotifications(db) : undefined), [db], query.data);
  // The device's copy carries marks made offline; once it has them, it is the fresher view.
  const cachedWins = shown.fromCache || !query.data;
  return {
    notifications: (cachedWins ? shown.data : query.data) ?? [],
    fromCache: shown.fromCache,
    isLoading: shown.missing && query.isFetching,
    isError: query.isError && shown.missing,
  };
}

export function useNotificationSubscriptions() {
  return useQuery({ queryKey: notificationKeys.subscriptions, queryFn: ({ signal }) => notificationCalls.subscriptions(signal) });
}
