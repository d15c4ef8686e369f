import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { $ZodType, safeEncode } from 'zod/v4/core';

type Serializer = (data: unknown) => string;

/**
 * T with each key its schema's output S does not have turned into `never`, at
 * every depth (objects, arrays, nullable members): a value of type T is
 * assignable to it only when it carries no key beyond the schema's.
 */
export type NoExtraKeys<T, S> = T extends readonly (infer E)[]
  ? readonly NoExtraKeys<E, NonNullable<S> extends readonly (infer F)[] ? F : never>[]
  : T extends object
    ? { [K in keyof T]: K extends keyof NonNullable<S> ? NoExtraKeys<T[K], NonNullable<S>[K]> : never }
    : T;

/** Response schemas whose handlers build exactly their output (exactResponse). */
const exactSchemas = new WeakSet<$ZodType>();

/**
 * Marks a route's response schema as built exactly by its handler, no key
 * more, which the handler proves to the compiler with `exactly`: production
 * then writes it with JSON.stringify instead of the compiled serializer. On a
 * listing page (28 KB, 50 entries) fast-json-stringify took ~2x
 * JSON.stringify's time, and its string of thousands of pieces cost as much
 * again to flatten when Fastify measured and wrote it (issue 38 §3); dropping
 * unknown keys, its one safety on top, is what the types already prove here.
 * Checked mode (tests, development) still holds the output to zod's, so a key
 * that slipped past the types fails the test that calls the route.
 */
export function exactResponse<S extends $ZodType>(schema: S): S {
  exactSchemas.add(schema);
  return schema;
}

/** The handler's answer for an `exactResponse` schema, refused by the compiler if it carries a key the schema lacks. */
export function exactly<S extends z.ZodType, T extends z.output<S>>(_schema: S, value: T & NoExtraKeys<T, z.output<S>>): T {
  return value;
}

/** Route schemas arrive as a zod schema, or wrapped as `{ properties: zodSchema }` by some Fastify paths. */
function zodSchemaOf(schema: unknown): $ZodType {
  if (schema instanceof $ZodType) return schema;
  const wrapped = (schema as { properties?: unknown } | null)?.properties;
  if (wrapped instanceof $ZodType) return wrapped;
  throw new Error(`A response schema is not a zod schema: ${JSON.stringify(schema)}`);
}

/**
 * A route's response schema as fast-json-stringify code, compiled once. The
 * OpenAPI 3.0 form writes nullable values as `nullable: true`, which
 * fast-json-stringify reads without falling back to a runtime validator the
 * way `anyOf: [T, null]` would. Objects keep `additionalProperties: false`, so
 * a column a handler forgot to leave out (a password hash, say) is dropped on
 * the wire exactly as zod's strip did.
 *
 * Null when the schema cannot be written as JSON Schema (a transform, a
 * custom check) or compiled: that route keeps zod's encode.
 */
export function compileSchema(schema: $ZodType): Serializer | null {
  try {
    const json = z.toJSONSchema(schema as z.ZodType, { target: 'openapi-3.0', io: 'output', unrepresentable: 'throw', cycles: 'ref', reused: 'inline' });
    return fastJson(json as Record<string, unknown>) as Serializer;
  } catch {
    // Not expressible, or a keyword fast-json-stringify refuses: zod's encode still answers, only slower.
    return null;
  }
}

function zodEncode(schema: $ZodType, method: string, url: string): (data: unknown) => unknown {
  return (data) => {
    const result = safeEncode(schema, data);
    if (result.error) throw new ResponseShapeError(`${method} ${url}`, result.error);
    return result.data;
  };
}

export class ResponseShapeError extends Error {
  constructor(label: string, cause: unknown) {
    super(`The response of ${label} does not match its schema`, { cause });
    this.name = 'ResponseShapeError';
  }
}

/**
 * Fastify's serializer compiler for zod route schemas.
 *
 * In production every response goes through the compiled serializer: zod's
 * encode validated each object again at run time, which was a third of
 * `bootstrap-data`'s time (47 KB of settings and lines) and a tenth of a
 * listing's. With `checked` (tests and development), zod still validates every
 * response as before, and the compiled output must equal zod's: the whole
 * test suite then proves the two serialisers agree on every route it calls.
 */
export function responseSerializerCompiler({ checked }: { checked: boolean }): FastifySerializerCompiler<unknown> {
  return ({ schema: given, method, url }) => {
    const schema = zodSchemaOf(given);
    const encode = zodEncode(schema, method, url);
    if (exactSchemas.has(schema)) {
      return checked ? (data) => agreeingWithZod(schema, data, JSON.stringify(data), `${method} ${url}`) : (data) => JSON.stringify(data);
    }
    // Compiled at the first response, not at start: ~10 ms a schema, and most test apps call few routes.
    let compiled: Serializer | null | undefined;
    const serializer = () => (compiled === undefined ? (compiled = compileSchema(schema)) : compiled);
    return (data) => {
      const fast = serializer();
      if (!fast) return JSON.stringify(encode(data));
      if (!checked) return fast(data);
      return agreeingWithZod(schema, data, fast(data), `${method} ${url}`);
    };
  };
}

/**
 * What a checked serializer answers: zod's own output, after making sure the
 * fast one produced the same JSON (throws naming `label` when it did not).
 */
export function agreeingWithZod(schema: $ZodType, data: unknown, fast: string, label: string): string {
  const expected = JSON.stringify(zodEncode(schema, 'response', label)(data));
  if (!isDeepStrictEqual(JSON.parse(fast), JSON.parse(expected))) {
    throw new Error(`The compiled serializer of ${label} disagrees with zod:\n compiled: ${fast.slice(0, 2000)}\n zod:      ${expected.slice(0, 2000)}`);
  }
  return expected;
}
