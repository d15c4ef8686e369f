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
  /** Set when the call came in over WebDAV: the same user and rights, named so in activity records. */
  via?: 'webdav';
}

/**
 * Someone holding a share link. A link call acts as the link alone, whoever is
 * signed in, so what it reaches is decided by the link grant source only (a
 * visitor's own grants never widen a link page).
 */
export interface LinkActor {
  kind: 'link';
  linkId: number;
  /** The user who made the link: what a file drop stores is recorded as theirs. */
  linkOwnerId: number;
  /** The linked entry and the space it lies in. */
  entry: { id: number; ownerId: number; workspaceId: number | null };
  allowDownload: boolean;
  fileDrop: boolean;
  /** The link owner's site permissions: a link offers no more than its owner may do. */
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
  return null;
}

/** Whom a new entry is recorded as made by: the signed-in user, or a link's owner for what arrives through their file drop. */
export function creatorId(actor: Actor): number {
  return actor.kind === 'link' ? actor.linkOwnerId : userIdOf(actor);
}

/** The signed-in user's id, or 401 for a caller who must be signed in. */
export function userIdOf(actor: Actor): number {
  const userId = signedInUserId(actor);
  if (userId === null) throw Unauthenticated();
  return userId;
}
