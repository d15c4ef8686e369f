import { api } from '../../../api/http';
import type { UpdateSelections } from './types';

// The notification calls of spec §7 and ours for web push, typed by their path.
export const notificationCalls = {
  list: (page: number, signal?: AbortSignal) => api.get('notifications', { query: { page }, signal }),
  markAsRead: (ids: string[]) => api.post('notifications/mark-as-read', { ids }),
  subscriptions: (signal?: AbortSignal) => api.get('notifications/me/subscriptions', { signal }),
  updateSubscriptions: (selections: UpdateSelections) => api.put('notifications/me/subscriptions', { selections }),
  pushKey: () => api.get('notifications/push/key'),
  subscribePush: (subscription: { endpoint: string; keys: { p256dh: string; auth: string } }) => api.post('notifications/push/subscriptions', subscription),
  unsubscribePush: (endpoint: string) => api.post('notifications/push/unsubscribe', { endpoint }),
};
