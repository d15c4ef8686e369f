import type { QueueProtocol } from '../queues/protocol';
import type { PinItem } from './types';

// The pins queue's messages. Pages store new pins in the user's database and
// kick; every other change (unpin, refresh, wipe) is a command to the one
// runner (the worker, or the page without one), which reports on the channel.
export const PINS_CHANNEL = 'offline-pins';
export const PINS_SYNC_TAG = 'offline-pins';
/** Periodic Background Sync's tag (granted to installed apps only). */
export const PINS_PERIODIC_TAG = 'offline-pins-refresh';
export const PINS_LOCK = 'drive-offline-pins';

export type PinCommand =
  /** Check every pin for changes now (app start, `online`, the page's timer, the Refresh button), then sync what is due. */
  | { type: 'pins:refresh' }
  | { type: 'pins:unpin'; userId: string; ids: string[] }
  /** Drop what no pin holds any more: bytes of old versions, interrupted downloads. */
  | { type: 'pins:free'; userId: string }
  /** Sign-out: every pin and byte of the user leaves the device. */
  | { type: 'pins:wipe'; userId: string };

/** What a sync changed in a workspace's listings: the page refetches those folders. */
export interface OfflineChange {
  userId: string;
  workspaceId: number | null;
  /** Folders whose listing the sync rewrote. */
  folderIds: string[];
}

export type PinEvent = { type: 'pin'; item: PinItem } | { type: 'pin-removed'; userId: string; ids: string[] } | ({ type: 'offline-changed' } & OfflineChange);

const COMMANDS = new Set(['pins:refresh', 'pins:unpin', 'pins:free', 'pins:wipe']);
const EVENTS = new Set(['pin', 'pin-removed', 'offline-changed']);
const typeOf = (data: unknown) => (typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined);

export function isPinCommand(data: unknown): data is PinCommand {
  const type = typeOf(data);
  if (typeof type !== 'string' || !COMMANDS.has(type)) return false;
  if (type === 'pins:refresh') return true;
  const { userId, ids } = data as { userId?: unknown; ids?: unknown };
  if (typeof userId !== 'string') return false;
  return type !== 'pins:unpin' || (Array.isArray(ids) && ids.every((id) => typeof id === 'string'));
}

export function isPinEvent(data: unknown): data is PinEvent {
  const type = typeOf(data);
  return typeof type === 'string' && EVENTS.has(type);
}

export const pinsProtocol: QueueProtocol<PinCommand, PinEvent> = {
  name: 'pins',
  syncTag: PINS_SYNC_TAG,
  channel: PINS_CHANNEL,
  kick: { type: 'pins:refresh' },
  isCommand: isPinCommand,
  isEvent: isPinEvent,
};
