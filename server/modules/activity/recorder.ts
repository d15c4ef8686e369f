import type { Kysely } from 'kysely';
import type { Database, FileEntryRow } from '../../db/types.js';
import type { Actor } from '../access/actor.js';

/** Every action an activity record names (issue 35). */
export const ACTIVITY_ACTIONS = [
  'created',
  'new-version',
  'renamed',
  'moved',
  'copied',
  'trashed',
  'restored',
  'purged',
  'shared',
  'unshared',
  'permission-changed',
  'link-created',
  'link-opened',
  'link-downloaded',
  'dropped',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** Who did it: a signed-in user, a share-link visitor, a WebDAV client (its user), or the server itself. */
export type ActivityActorKind = 'user' | 'visitor' | 'webdav' | 'system';

export type ActivityEntry = Pick<FileEntryRow, 'id' | 'name' | 'type' | 'owner_id' | 'workspace_id'>;

export interface ActivityEvent {
  action: ActivityAction;
  entries: ActivityEntry[];
  /** The caller; 'visitor' for someone holding a share link; 'system' for the scheduler's work (a purge of expired trash). */
  actor: Actor | 'system' | 'visitor';
  /** The protocol the call came in by, when it is not the app's API. */
  via?: 'webdav';
  /** A visitor's anonymised address (share-links/address.ts). */
  address?: string | null;
  details?: Record<string, string | number | null>;
}

/**
 * The one way other modules record activity: they say what happened, the
 * activity module writes it. `db` is the caller's transaction when the record
 * must commit or roll back with the action.
 */
export interface ActivityRecorder {
  record(event: ActivityEvent, db?: Kysely<Database>): Promise<void>;
}

/** For builds and tests that record nothing. */
export const noActivity: ActivityRecorder = { record: async () => undefined };

export function actorOf(event: Pick<ActivityEvent, 'actor' | 'via'>): { kind: ActivityActorKind; id: number | null } {
  const { actor } = event;
  if (actor === 'system') return { kind: 'system', id: null };
  if (actor === 'visitor') return { kind: 'visitor', id: null };
  if (actor.kind === 'guest') return { kind: 'system', id: null };
  if (actor.kind === 'link') return { kind: 'visitor', id: null };
  return { kind: event.via === 'webdav' || actor.via === 'webdav' ? 'webdav' : 'user', id: actor.userId };
}
