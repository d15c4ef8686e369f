import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CsrfMismatch } from '../lib/errors.js';
import { randomToken, safeEqual } from '../lib/tokens.js';
import { isSecure, SESSION_COOKIE, sessionIdOf, XSRF_COOKIE, XSRF_HEADER } from './cookies.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * XSRF protection. Every browser gets a readable XSRF-TOKEN cookie, and
 * unsafe methods must echo it in X-XSRF-TOKEN: another site can make the
 * browser send cookies but cannot read them to set the header.
 *
 * With a session the token is bound to it: it must be the HMAC (app key) of
 * the session cookie, so a token planted from elsewhere (a sibling subdomain
 * setting XSRF-TOKEN) does not pass with the victim's session (issue 10).
 * Sign-in and sign-out rotate it. Without a session (sign-in, registration)
 * the plain double submit applies. Bearer-token callers carry no ambient
 * credentials, so they are exempt.
 */
const keys = new WeakMap<FastifyInstance, Promise<string>>();

function appKey(request: FastifyRequest): Promise<string> {
  const app = request.server;
  let key = keys.get(app);
  if (!key) {
    key = app.appKey();
    keys.set(app, key);
  }
  return key;
}

export const xsrfTokenFor = (key: string, sessionToken: string): string => createHmac('sha256', key).update(`xsrf|${sessionToken}`).digest('base64url');

/** Beyond this many sessions the map starts again rather than grow without end (a flood of made-up cookies). */
const MAX_BOUND = 10_000;
const boundTokens = new WeakMap<FastifyInstance, Map<string, string>>();

/**
 * The token bound to a session, remembered per app by the session's hash (as
 * the sessions table keys it, so no cookie value is kept): keying an HMAC
 * costs ~6x a plain hash, and every request of a session asked for the same
 * one (issue 38 §3). The app key never changes under a running app.
 */
function boundTokenFor(request: FastifyRequest, sessionToken: string): string | Promise<string> {
  let bound = boundTokens.get(request.server);
  if (!bound) boundTokens.set(request.server, (bound = new Map()));
  const id = sessionIdOf(request, sessionToken);
  const known = bound.get(id);
  if (known !== undefined) return known;
  return appKey(request).then((key) => {
    const token = xsrfTokenFor(key, sessionToken);
    if (bound.size >= MAX_BOUND) bound.clear();
    bound.set(id, token);
    return token;
  });
}

function setXsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(XSRF_COOKIE, token, { path: '/', httpOnly: false, sameSite: 'lax', secure: isSecure(request) });
}

/**
 * The token this browser should hold: bound to its session, else whatever random one it has. A promise only
 * when the bound token is not known yet (the caller awaits it then, and only then).
 */
export function ensureXsrfCookie(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
  const existing = request.cookies[XSRF_COOKIE];
  const session = request.cookies[SESSION_COOKIE];
  if (session) {
    const bound = boundTokenFor(request, session);
    if (typeof bound === 'string') {
      if (existing !== bound) setXsrfCookie(request, reply, bound);
      return undefined;
    }
    return bound.then((token) => {
      if (existing !== token) setXsrfCookie(request, reply, token);
    });
  }
  if (!existing) setXsrfCookie(request, reply, randomToken(32));
  return undefined;
}

/** A new session (sign-in) gets a new token bound to it, in the same answer. */
export async function rotateXsrfForSession(request: FastifyRequest, reply: FastifyReply, sessionToken: string): Promise<void> {
  setXsrfCookie(request, reply, xsrfTokenFor(await appKey(request), sessionToken));
}

/** Signed out: a fresh unbound token, so nothing of the old session's lingers. */
export function rotateXsrfForGuest(request: FastifyRequest, reply: FastifyReply): void {
  setXsrfCookie(request, reply, randomToken(32));
}

/** Throws (or rejects) on a missing or wrong token; a promise only for an unsafe method (a safe one answers at once). */
export function checkXsrf(request: FastifyRequest): Promise<void> | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  return checkUnsafe(request);
}

async function checkUnsafe(request: FastifyRequest): Promise<void> {
  if (request.authVia === 'token') return;
  if (request.routeOptions.config?.xsrf === false) return;
  const header = request.headers[XSRF_HEADER];
  const sent = Array.isArray(header) ? header[0] : header;
  const session = request.cookies[SESSION_COOKIE];
  const expected = session ? await boundTokenFor(request, session) : request.cookies[XSRF_COOKIE];
  if (!expected || !sent || !safeEqual(expected, sent)) throw CsrfMismatch();
}
