import type { QueueProtocol } from '../protocol';
import type { ConflictChoice, UploadItem } from './types';

// The upload queue's messages. Pages write new items to IndexedDB themselves
// and then nudge the worker (who is signed in travels in the host's session
// message, src/offline/queues/protocol.ts); the worker reports every change on
// one BroadcastChannel so all open pages stay in step.
export const UPLOADS_CHANNEL = 'uploads';
export const SYNC_TAG = 'upload-queue';

export type UploadEvent = { type: 'item'; item: UploadItem } | { type: 'removed'; ids: string[] };

export type UploadCommand =
  | { type: 'uploads:kick' }
  | { type: 'uploads:cancel'; id: string }
  | { type: 'uploads:retry'; id: string }
  | { type: 'uploads:clear'; userId: string }
  /** The person's answer to a taken name: Replace or Keep both. */
  | { type: 'uploads:resolve'; id: string; choice: ConflictChoice };

const COMMANDS = new Set<UploadCommand['type']>(['uploads:kick', 'uploads:cancel', 'uploads:retry', 'uploads:clear', 'uploads:resolve']);

export function isUploadCommand(data: unknown): data is UploadCommand {
  return typeof data === 'object' && data !== null && COMMANDS.has((data as { type?: unknown }).type as UploadCommand['type']);
}

export function isUploadEvent(data: unknown): data is UploadEvent {
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  return type === 'item' || type === 'removed';
}

export const uploadsProtocol: QueueProtocol<UploadCommand, UploadEvent> = {
  name: 'uploads',
  syncTag: SYNC_TAG,
  channel: UPLOADS_CHANNEL,
  kick: { type: 'uploads:kick' },
  isCommand: isUploadCommand,
  isEvent: isUploadEvent,
};
