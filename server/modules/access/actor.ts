import { Unauthenticated } from '../../lib/errors.js';
import type { Permission } from '../permissions/policy.js';

/**
 * Who is calling, built once per request by the authenticate hook. It holds
 * what the policy needs and nothing else: no users row, no password hash.
 * Services that decide access take an Actor; account screens that show or
 * change the profile read the user row separately.
 */
export interface UserActor {
  kind: 'user';
  userId: number;
  /** Site permissions (roles and direct grants merged): the ceiling of every action. */
  permissions: Permission[];
}

/** Someone holding a share link, signed in or not (the link grant source fills this in). */
export interface LinkActor {
  kind: 'link';
  linkId: number;
  /** The user who created the link: what it reaches is theirs. */
  linkOwnerId: number;
  user: UserActor | null;
  /** The signed-in user's permissions, else the guest role's. */
  permissions: Permission[];
}

/** Not signed in: the guest role's permissions apply (spec §6). */
export interface GuestActor {
  kind: 'guest';
  permissions: Permission[];
}

export type Actor = UserActor | LinkActor | GuestActor;
export type ActorKind = Actor['kind'];

export const userActor = (userId: number, permissions: Permission[]): UserActor => ({ kind: 'user', userId, permissions });
export const guestActor = (permissions: Permission[]): GuestActor => ({ kind: 'guest', permissions });

/** The signed-in user behind an actor, if any. */
export function signedInUserId(actor: Actor): number | null {
  if (actor.kind === 'user') return actor.userId;
  if (actor.kind === 'link') return actor.user?.userId ?? null;
  return null;
}

/** The signed-in user's id, or 401 for a caller who must be signed in. */
export function userIdOf(actor: Actor): number {
  const userId = signedInUserId(actor);
  if (userId === null) throw Unauthenticated();
  return userId;
}
