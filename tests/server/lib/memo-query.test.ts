import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { memoisingQueryValidator } from '../../../server/lib/memo-query.js';

/** Issue 38 §3: the listing's query is parsed once per distinct query, each request getting its own copy. */
describe('a query validator that remembers its answers', () => {
  let parses = 0;
  const schema = z.object({ perPage: z.coerce.number().int().max(500).default(50), folderId: z.string().optional() }).transform((value) => {
    parses += 1;
    return value;
  });
  const compile = (httpPart: string) =>
    memoisingQueryValidator({ schema, httpPart, method: 'GET', url: '/probe' } as unknown as FastifyRouteSchemaDef<unknown>) as (data: unknown) => {
      value?: Record<string, unknown>;
      error?: unknown;
    };

  it('parses the same query once and hands each caller its own copy', () => {
    const validate = compile('querystring');
    parses = 0;
    const first = validate({ folderId: 'abc', perPage: '20' });
    const second = validate({ folderId: 'abc', perPage: '20' });
    expect(first.value).toEqual({ folderId: 'abc', perPage: 20 });
    expect(second.value).toEqual(first.value);
    expect(second.value).not.toBe(first.value);
    expect(parses).toBe(1);
    second.value!.perPage = 1;
    expect(validate({ folderId: 'abc', perPage: '20' }).value).toEqual({ folderId: 'abc', perPage: 20 });
  });

  it('never mistakes one query for another, keeps no refusal, and leaves arrays and other parts alone', () => {
    const validate = compile('querystring');
    parses = 0;
    // Names and values that would run together joined without their lengths.
    expect(validate({ folderId: 'a1:b', perPage: '2' }).value).toEqual({ folderId: 'a1:b', perPage: 2 });
    expect(validate({ folderId: 'a', perPage: '2' }).value).toEqual({ folderId: 'a', perPage: 2 });
    expect(validate({ perPage: '9999' }).error).toBeDefined();
    expect(validate({ perPage: '9999' }).error).toBeDefined();
    expect(validate({ folderId: ['a', 'b'] }).error).toBeDefined();
    expect(parses).toBe(2);
    const body = compile('body');
    body({ perPage: '3' });
    body({ perPage: '3' });
    expect(parses).toBe(4);
  });
});
