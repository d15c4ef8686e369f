import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256 } from '../lib/tokens.js';

export const SESSION_COOKIE = 'drive_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';

/**
 * The session cookie's hash (the sessions table's key), worked out once a
 * request: the XSRF check and authentication both key by it, and hashed
 * twice it was the same work twice on every request (issue 38 §3).
 */
export function sessionIdOf(request: FastifyRequest, token: string): string {
  // A request's cookie never changes; a token given by a caller other than the cookie is hashed on its own.
  if (token !== request.cookies[SESSION_COOKIE]) return sha256(token);
  return (request.sessionCookieId ??= sha256(token));
}

/** Secure cookies whenever the browser reached us over https (directly or via a trusted proxy). */
export function isSecure(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, maxAgeSeconds: number | null) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
    // A session that is not remembered ends with the browser.
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
}
