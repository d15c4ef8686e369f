import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../lib/errors.js';

/** What every API call may carry in its query string (spec base client rules). */
export interface RequestContext {
  /** The workspace a drive call asks for (`?workspaceId=`; 0 or absent: the personal space), not yet checked against the caller. */
  workspaceId: number | null;
  /** Relations asked for with `?with=a,b`. */
  with: string[];
}

/** Parses the query parameters every call may carry: `workspaceId` and `with`. */
export function parseRequestContext(request: FastifyRequest): RequestContext {
  const query = (request.query ?? {}) as Record<string, unknown>;
  return { workspaceId: parseWorkspaceId(query.workspaceId), with: parseWith(query.with) };
}

function parseWorkspaceId(raw: unknown): number | null {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === null || value === '') return null;
  const text = String(value);
  if (!/^\d{1,15}$/.test(text)) {
    throw ValidationError.field('workspaceId', 'The workspace id must be a whole number.');
  }
  return Number(text);
}

function parseWith(raw: unknown): string[] {
  const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return [
    ...new Set(
      values
        .flatMap((v) => String(v).split(','))
        .map((v) => v.trim())
        .filter(Boolean),
    ),
  ];
}
