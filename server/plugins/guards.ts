import type { FastifyRequest } from 'fastify';
import { Forbidden, Unauthenticated } from '../lib/errors.js';
import { can } from '../modules/permissions/policy.js';
import type { UserWithAccess } from '../modules/users/repository.js';

/** onRequest hook: the route needs a signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.user) throw Unauthenticated();
}

/** The signed-in user of a route guarded by `requireUser`. */
export function currentUser(request: FastifyRequest): UserWithAccess {
  if (!request.user) throw Unauthenticated();
  return request.user;
}

export function requirePermission(permission: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.user) throw Unauthenticated();
    if (!can(request.user, permission)) throw Forbidden();
  };
}
