import { getErrorMessage } from '../../../api/errors';
import type { DeleteBody, DeleteResponse } from '../api/types';

// The toasts of spec §7 file-entries/delete and the failures of §8, as data:
// an English key and its values, translated where shown.
export interface Message {
  key: string;
  values?: { count: number };
}

/** While waiting: 'Emptying trash...' or 'Moving to trash...' (delete forever included, as the spec words it). */
export function pendingMessage(body: Pick<DeleteBody, 'emptyTrash'>): Message {
  return { key: body.emptyTrash ? 'Emptying trash...' : 'Moving to trash...' };
}

export function successMessage(response: Pick<DeleteResponse, 'action' | 'count'>): Message {
  switch (response.action) {
    case 'emptied':
      return { key: 'Emptied trash' };
    case 'deleted':
      return { key: 'Permanently deleted :count items', values: { count: response.count } };
    default:
      return { key: 'Moved :count items to trash', values: { count: response.count } };
  }
}

/** The server's message if it gave one, else 'could not empty trash' / 'Could not delete items'. */
export function failureMessage(body: Pick<DeleteBody, 'emptyTrash'>, error: unknown): Message {
  return { key: getErrorMessage(error, body.emptyTrash ? 'could not empty trash' : 'Could not delete items') };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** "Deleted forever in N days" for a trashed entry (its purge time was fixed when it was trashed). */
export function purgeMessage(purgeAt: string, now: number = Date.now()): Message {
  const days = Math.ceil((Date.parse(purgeAt) - now) / DAY_MS);
  return days <= 1 ? { key: 'Deleted forever within a day' } : { key: 'Deleted forever in :count days', values: { count: days } };
}

export function purgeLine(purgeAt: string, t: (key: string, values?: { count: number }) => string, now?: number): string {
  const message = purgeMessage(purgeAt, now);
  return t(message.key, message.values);
}
