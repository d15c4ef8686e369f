// Messages from pages to the service worker's queue host. A queue's commands
// are `<queue name>:<verb>`; the host routes them by that prefix.

/** Who is signed in, and the XSRF token to echo: sent on start and every 20 s while work waits. */
export interface SessionMessage {
  type: 'session';
  userId: string | null;
  xsrfToken: string | null;
}

export interface QueueCommand {
  type: `${string}:${string}`;
}

export function isSessionMessage(data: unknown): data is SessionMessage {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'session';
}

/** The queue a command is for, or null for anything else. */
export function queueOf(data: unknown): string | null {
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (typeof type !== 'string') return null;
  const colon = type.indexOf(':');
  return colon > 0 ? type.slice(0, colon) : null;
}
