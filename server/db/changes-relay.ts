import { randomUUID } from 'node:crypto';
import type { Broadcast, JsonValue } from '../lib/broadcast.js';
import type { AccessChanges, ChangeTopic } from './changes.js';

const TOPIC = 'db-changes';

function isChange(message: JsonValue): message is { topics: ChangeTopic[]; origin: string } {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return false;
  const { topics, origin } = message;
  return typeof origin === 'string' && Array.isArray(topics) && topics.every((t) => t === 'access' || t === 'data');
}

/**
 * Carries database change events between the processes of a scaled-out site:
 * each process keeps its access cache, bootstrap data and listing versions in
 * memory, and a write through one must retire them in all. Writes in one tick
 * go out as one message (an upload's many small writes are one event), and a
 * process ignores its own messages: it has already heard them locally.
 */
export function relayChanges(changes: AccessChanges, broadcast: Broadcast, log: { warn(obj: object, msg: string): void }): () => void {
  const origin = randomUUID();
  let relaying = false;
  let pending: Set<ChangeTopic> | null = null;

  const stopLocal = changes.subscribe((topic) => {
    if (relaying) return;
    if (!pending) {
      pending = new Set();
      setImmediate(() => {
        const topics = [...(pending ?? [])];
        pending = null;
        broadcast.publish(TOPIC, { topics, origin }).catch((error: unknown) => log.warn({ err: error }, 'could not tell other processes of a database change'));
      });
    }
    pending.add(topic);
  });

  let stopRemote: (() => void) | null = null;
  let stopped = false;
  void broadcast
    .subscribe(TOPIC, (message) => {
      if (!isChange(message) || message.origin === origin) return;
      relaying = true;
      try {
        for (const topic of message.topics) changes.publish(topic);
      } finally {
        relaying = false;
      }
    })
    .then((stop) => {
      if (stopped) stop();
      else stopRemote = stop;
    })
    .catch((error: unknown) => log.warn({ err: error }, 'could not listen for other processes’ database changes'));

  return () => {
    stopped = true;
    stopLocal();
    stopRemote?.();
  };
}
