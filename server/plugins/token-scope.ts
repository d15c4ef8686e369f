import type { FastifyRequest } from 'fastify';
import { Forbidden } from '../lib/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A read-only token reads: every unsafe method over it is refused here, once for every route. */
export function checkTokenScope(request: FastifyRequest): void {
  if (request.authVia !== 'token' || SAFE_METHODS.has(request.method)) return;
  if (!request.tokenScopes?.includes('write')) throw Forbidden('This token may only read.');
}
