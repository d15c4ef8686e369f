import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signedInUserId } from '../access/actor.js';

/** Versions start again at 0 in every process: tags from a previous run must not match. */
const BOOT = randomBytes(4).toString('hex');

/**
 * A listing's ETag from what it depends on, without building it: the data
 * version (every write bumps it, so equal versions mean equal rows, grants and
 * permissions), who asks, in which workspace, with which query. Computed
 * before the page is read, so a write racing the read only ever makes the tag
 * older than the body, never newer: a later If-None-Match misses, it never
 * wrongly matches.
 */
export function listingTag(version: number, request: FastifyRequest): string {
  const who = `${request.actor.kind}:${signedInUserId(request.actor) ?? ''}:${request.ctx.workspaceId ?? ''}`;
  const digest = hash('sha1', `${who}|${request.url}`, 'base64url').slice(0, 16);
  return `W/"${BOOT}.${version}.${digest}"`;
}

/** Sets the tag and answers 304 when the client already holds it: true when the reply is sent. */
export function notModified(request: FastifyRequest, reply: FastifyReply, tag: string): boolean {
  // no-cache: the browser keeps the body and asks again every time, which costs a 304 when nothing changed.
  reply.header('etag', tag).header('cache-control', 'private, no-cache');
  const held = request.headers['if-none-match'];
  if (!held || !held.split(',').some((candidate) => candidate.trim() === tag)) return false;
  reply.code(304).send();
  return true;
}
