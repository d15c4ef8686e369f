import type { FastifyRequest } from 'fastify';
import { Unauthenticated } from '../../lib/errors.js';
import type { AdminCaller } from './activity/service.js';

/** Who is making an admin call, for the activity log. Admin routes admit signed-in users only. */
export function callerOf(request: FastifyRequest): AdminCaller {
  if (!request.user) throw Unauthenticated();
  return { userId: request.user.id, email: request.user.email, ip: request.ip };
}
