import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, Unauthenticated } from '../lib/errors.js';
import type { Actor, ActorKind } from '../modules/access/actor.js';
import { hasPermission } from '../modules/access/policy.js';
import type { UserWithAccess } from '../modules/users/repository.js';

/**
 * onRequest hook: which kinds of caller a route admits (immich's
 * `@Authenticated({ sharedLink: true })`). A guest where only signed-in
 * users (or link holders) are admitted gets 401.
 */
export function admit(...kinds: ActorKind[]) {
  // Named after what it admits, so a profile or the listing bench's hook costs say which guard it is.
  // A callback hook: an async one costs a promise and a turn of the microtask queue on every request.
  const guard = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    done(kinds.includes(request.actor.kind) ? undefined : Unauthenticated());
  };
  Object.defineProperty(guard, 'name', { value: `admit(${kinds.join(', ')})` });
  return guard;
}

/** onRequest hook: the route needs a signed-in user. */
export const requireUser = admit('user');

/** requireUser's check, for a hook that applies it to some of its routes only. */
export function assertUser(request: FastifyRequest): void {
  if (request.actor.kind !== 'user') throw Unauthenticated();
}

/** The caller of a route guarded by `admit`. */
export function currentActor(request: FastifyRequest): Actor {
  return request.actor;
}

/** The signed-in account (profile, settings) of a route guarded by `requireUser`. */
export function currentUser(request: FastifyRequest): UserWithAccess {
  if (!request.user) throw Unauthenticated();
  return request.user;
}

/** A site permission (spec §6), asked of the caller: a user's roles, else the guest role. */
export function requirePermission(permission: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (hasPermission(request.actor, permission)) return;
    throw request.actor.kind === 'guest' ? Unauthenticated() : Forbidden();
  };
}
