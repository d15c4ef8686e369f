import { IN_INDEXEDDB } from '../../../offline/persister';

// The notifications' query keys, the one place they are defined (the user's, whichever workspace is active).
export const notificationKeys = {
  all: ['notifications'] as const,
  list: ['notifications', 'list'] as const,
  subscriptions: ['notifications', 'subscriptions'] as const,
};

/** The list lives in the per-user IndexedDB database (offline/user-db.ts), not in localStorage. */
export const notificationListMeta = IN_INDEXEDDB;
