import type { FastifyReply, FastifyRequest } from 'fastify';
import { CsrfMismatch } from '../lib/errors.js';
import { randomToken, safeEqual } from '../lib/tokens.js';
import { isSecure, XSRF_COOKIE, XSRF_HEADER } from './cookies.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Double-submit XSRF protection: every browser gets a readable XSRF-TOKEN
 * cookie, and unsafe methods must echo it in X-XSRF-TOKEN. Another site can
 * make the browser send the cookie but cannot read it to set the header.
 * Bearer-token callers carry no ambient credentials, so they are exempt.
 */
export function ensureXsrfCookie(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[XSRF_COOKIE];
  if (existing) return existing;
  const token = randomToken(32);
  reply.setCookie(XSRF_COOKIE, token, { path: '/', httpOnly: false, sameSite: 'lax', secure: isSecure(request) });
  return token;
}

export function checkXsrf(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.authVia === 'token') return;
  if (request.routeOptions.config?.xsrf === false) return;
  const cookie = request.cookies[XSRF_COOKIE];
  const header = request.headers[XSRF_HEADER];
  const sent = Array.isArray(header) ? header[0] : header;
  if (!cookie || !sent || !safeEqual(cookie, sent)) throw CsrfMismatch();
}
