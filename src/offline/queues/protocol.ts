// Messages between pages and the service worker's queue host. A queue's
// commands are `<queue name>:<verb>`; the host routes them by that prefix.
// Each queue states its protocol once (QueueProtocol): the worker registers it
// on the host, and the page's one queue client (client.ts) speaks it.

/** Who is signed in, and the XSRF token to echo: sent before every kick, and every 20 s while work waits. */
export interface SessionMessage {
  type: 'session';
  userId: string | null;
  xsrfToken: string | null;
}

export interface QueueCommand<Name extends string = string> {
  type: `${Name}:${string}`;
}

/** What the worker broadcasts to every page: a change to one of the queue's items. */
export interface QueueEvent {
  type: string;
}

/** A queue's contract, shared by its worker side and its page side. */
export interface QueueProtocol<Command extends QueueCommand, Event extends QueueEvent> {
  /** The prefix of its commands. */
  name: string;
  /** The Background Sync tag that wakes the worker for it. */
  syncTag: string;
  /** The BroadcastChannel its events travel on. */
  channel: string;
  /** The nudge that makes whoever runs the queue work through it. */
  kick: Command;
  isCommand(data: unknown): data is Command;
  isEvent(data: unknown): data is Event;
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
