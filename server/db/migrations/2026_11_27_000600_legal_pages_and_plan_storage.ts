import type { Kysely } from 'kysely';

/**
 * Issue 32.7, defaults that mislead on a new install:
 *
 * - The footer's Privacy Policy and Terms of Service (menus/defaults.ts) pointed at pages that did not
 *   exist, so both led to the 404 page. The two pages are shipped with placeholder text an admin edits
 *   in Pages, rather than hiding the links: a site that takes accounts and payments needs both, and a
 *   link that is visibly a placeholder tells the admin what to write, where a hidden one says nothing.
 *   Once, here: a page an admin deletes later stays deleted (the seeder, run at every start, would
 *   bring it back).
 * - The seeded plans listed their storage twice: the card shows available_space, and the first
 *   feature said it again. Those exact seeded lines go; a feature an admin wrote stays.
 */
const PAGES = [
  {
    slug: 'privacy-policy',
    title: 'Privacy Policy',
    body: '<p>This is a placeholder. An administrator writes this site’s privacy policy in the admin area, under Pages.</p>',
  },
  {
    slug: 'terms-of-service',
    title: 'Terms of Service',
    body: '<p>This is a placeholder. An administrator writes this site’s terms of service in the admin area, under Pages.</p>',
  },
];

const SEEDED_STORAGE_FEATURES = ['10 GB of storage', '100 GB of storage', '1 TB of storage'];

export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();
  for (const page of PAGES) {
    const existing = await db.selectFrom('custom_pages').select('id').where('slug', '=', page.slug).executeTakeFirst();
    if (existing) continue;
    await db
      .insertInto('custom_pages')
      .values({ ...page, meta: '{}', visibility: 'public', user_id: null, created_at: now, updated_at: now })
      .execute();
  }
  const products = await db.selectFrom('products').select(['id', 'feature_list']).execute();
  for (const product of products as { id: number; feature_list: string | null }[]) {
    let features: unknown;
    try {
      features = JSON.parse(product.feature_list ?? '[]');
    } catch {
      continue;
    }
    if (!Array.isArray(features)) continue;
    const kept = features.filter((feature) => !SEEDED_STORAGE_FEATURES.includes(feature));
    if (kept.length !== features.length) {
      await db
        .updateTable('products')
        .set({ feature_list: JSON.stringify(kept) })
        .where('id', '=', product.id)
        .execute();
    }
  }
}

export async function down(_db: Kysely<any>): Promise<void> {
  // Placeholder pages and a restated feature are content now: nothing to undo.
}
