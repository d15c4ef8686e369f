import type { FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import { SESSION_COOKIE } from './cookies.js';

/**
 * Who is calling: a personal access token (`Authorization: Bearer`) or the
 * session cookie. An invalid bearer token is treated as no identity at all
 * rather than falling back to the cookie, so API clients see their mistake.
 */
export async function authenticate(request: FastifyRequest, services: Services): Promise<void> {
  request.user = null;
  request.authVia = null;
  request.sessionToken = null;

  const header = request.headers.authorization;
  if (header && /^bearer\s+/i.test(header)) {
    const userId = await services.accessTokens.resolve(header.replace(/^bearer\s+/i, '').trim());
    if (userId !== null) await attach(request, services, userId, 'token');
    return;
  }

  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const userId = await services.sessions.resolve(token);
  if (userId === null) return;
  request.sessionToken = token;
  await attach(request, services, userId, 'session');
}

async function attach(request: FastifyRequest, services: Services, userId: number, via: 'session' | 'token') {
  const user = await services.users.findById(userId);
  if (!user) return;
  request.user = await services.users.withAccess(user);
  request.authVia = via;
}
