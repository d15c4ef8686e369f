import type { QueueProtocol } from '../protocol';
import type { SaveItem } from './types';

// The save queue's messages: pages write items to IndexedDB and nudge the
// worker; the worker reports every change on one channel.
export const SAVES_CHANNEL = 'document-saves';
export const SAVES_SYNC_TAG = 'document-save-queue';
export const SAVES_LOCK = 'drive-document-save-queue';

export type SaveEvent = { type: 'save'; item: SaveItem };
export type SaveCommand = { type: 'saves:kick' };

export function isSaveCommand(data: unknown): data is SaveCommand {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'saves:kick';
}

export function isSaveEvent(data: unknown): data is SaveEvent {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'save';
}

export const savesProtocol: QueueProtocol<SaveCommand, SaveEvent> = {
  name: 'saves',
  syncTag: SAVES_SYNC_TAG,
  channel: SAVES_CHANNEL,
  kick: { type: 'saves:kick' },
  isCommand: isSaveCommand,
  isEvent: isSaveEvent,
};
