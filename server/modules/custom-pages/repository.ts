import type { Kysely, Selectable } from 'kysely';
import type { CustomPagesTable, Database } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import { nowIso } from '../../lib/time.js';
import { contains, pageOf, type Page } from '../admin/paging.js';
import type { PageInput } from './schemas.js';
import { sanitizePageHtml } from './sanitize.js';

export interface CustomPage {
  id: number;
  title: string;
  slug: string;
  body: string;
  meta: { description: string; keywords: string; og_image: string };
  visibility: 'public' | 'signed_in';
  created_at: string;
  updated_at: string;
}

/** Rows leave the database through here: the body is cleaned again on the way out. */
function present(row: Selectable<CustomPagesTable>): CustomPage {
  const meta = parseJson<Partial<CustomPage['meta']>>(row.meta, {});
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    body: sanitizePageHtml(row.body),
    meta: { description: meta.description ?? '', keywords: meta.keywords ?? '', og_image: meta.og_image ?? '' },
    visibility: row.visibility === 'signed_in' ? 'signed_in' : 'public',
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export const PAGE_SORTS = ['updated_at', 'created_at', 'title', 'slug'] as const;

export class CustomPagesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async bySlug(slug: string): Promise<CustomPage | null> {
    const row = await this.db.selectFrom('custom_pages').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row ? present(row) : null;
  }

  async byId(id: number): Promise<CustomPage | null> {
    const row = await this.db.selectFrom('custom_pages').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? present(row) : null;
  }

  async slugTaken(slug: string, exceptId: number | null, db: Kysely<Database> = this.db): Promise<boolean> {
    let query = db.selectFrom('custom_pages').select('id').where('slug', '=', slug);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async list(query: {
    page: number;
    perPage: number;
    query?: string | undefined;
    orderBy?: (typeof PAGE_SORTS)[number] | undefined;
    orderDir: 'asc' | 'desc';
  }): Promise<Page<CustomPage>> {
    let base = this.db.selectFrom('custom_pages');
    if (query.query) {
      const text = query.query;
      base = base.where((eb) => eb.or([contains('title', text), contains('slug', text)]));
    }
    const { total } = await base.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
    const rows = await base
      .selectAll()
      .orderBy(query.orderBy ?? 'updated_at', query.orderDir)
      // Ties (one millisecond) in the direction asked, so oldest first is insertion order too.
      .orderBy('id', query.orderDir)
      .limit(query.perPage)
      .offset((query.page - 1) * query.perPage)
      .execute();
    return pageOf(rows.map(present), query, Number(total));
  }

  async insert(input: PageInput, userId: number, db: Kysely<Database> = this.db): Promise<number> {
    const now = nowIso();
    const row = await db
      .insertInto('custom_pages')
      .values({ ...columns(input), user_id: userId, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, input: PageInput, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .updateTable('custom_pages')
      .set({ ...columns(input), updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number, db: Kysely<Database> = this.db): Promise<void> {
    await db.deleteFrom('custom_pages').where('id', '=', id).execute();
  }
}

function columns(input: PageInput) {
  return {
    title: input.title,
    slug: input.slug,
    body: sanitizePageHtml(input.body),
    meta: JSON.stringify(input.meta),
    visibility: input.visibility,
  };
}
