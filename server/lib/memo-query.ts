import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';

/** Beyond this many distinct query strings a route's memo starts again (made-up queries must not grow it without end). */
const MAX_KEPT = 500;

type Validation = ReturnType<ReturnType<FastifySchemaCompiler<unknown>>>;

/**
 * The zod validator of a route whose query schema is pure (no refinement
 * reading the clock or anything but the value) and whose output holds only
 * primitives: an answer is kept per query, and the same query again (a
 * client scrolling, every open tab's refresh) gets a copy of it instead of
 * a fresh parse, a fiftieth of a listing's CPU (issue 38 §3). Refusals are
 * not kept. Only for querystrings; any other part is validated as usual.
 */
export const memoisingQueryValidator: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]) as (data: unknown) => Validation;
  if (route.httpPart !== 'querystring') return validate;
  const kept = new Map<string, Record<string, unknown>>();
  return (data: unknown) => {
    const key = keyOf(data);
    const known = key === null ? undefined : kept.get(key);
    // A copy: a handler may set a field of its own request's query.
    if (known) return { value: { ...known } };
    const result = validate(data);
    const value = typeof result === 'object' && 'value' in result && !result.error ? (result.value as unknown) : null;
    if (key !== null && value && typeof value === 'object') {
      if (kept.size >= MAX_KEPT) kept.clear();
      kept.set(key, { ...(value as Record<string, unknown>) });
    }
    return result;
  };
};

/** The parsed query as one string, or null when a value is not a plain string (repeated keys arrive as arrays). */
function keyOf(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  let key = '';
  for (const name in data) {
    const value = (data as Record<string, unknown>)[name];
    if (typeof value !== 'string') return null;
    // Each part led by its length: no name or value, whatever it holds, can run into the next.
    key += `${name.length}:${name}${value.length}:${value}`;
  }
  return key;
}
