import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';

/** The listing conventions of the drive (spec §4 "Lists"), for the admin tables: numbered pages. */
export interface Page<T> {
  pagination: { data: T[]; current_page: number; per_page: number; total: number; last_page: number };
}

export function pageOf<T>(data: T[], query: { page: number; perPage: number }, total: number): Page<T> {
  return {
    pagination: { data, current_page: query.page, per_page: query.perPage, total, last_page: Math.max(1, Math.ceil(total / query.perPage)) },
  };
}

/** `%` and `_` typed by an admin are searched for, not wildcards (every LIKE here says `escape '\'`). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The query every admin table accepts: page, perPage (at most 100), query (search), orderBy, orderDir. */
export function listQuery<const S extends readonly [string, ...string[]]>(sorts: S) {
  return z.object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    perPage: z.coerce.number().int().min(1).max(100).default(25),
    query: z.string().trim().max(200).optional(),
    orderBy: z.enum(sorts).optional(),
    orderDir: z.enum(['asc', 'desc']).default('desc'),
  });
}

/** The wire shape of one page. */
export function pageSchema<T extends z.ZodTypeAny>(item: T) {
  return z.object({
    pagination: z.object({ data: z.array(item), current_page: z.number(), per_page: z.number(), total: z.number(), last_page: z.number() }),
  });
}

/** Case-insensitive "contains" on one column (or an owner's scalar subquery), the same on both dialects. */
export function contains(column: string | Expression<unknown>, text: string): RawBuilder<SqlBool> {
  const value = typeof column === 'string' ? sql.ref(column) : sql`(${column})`;
  return sql<SqlBool>`lower(${value}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}
