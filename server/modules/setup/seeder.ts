import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../lib/time.js';
import { shippedLocalizations } from '../localizations/shipped.js';
import { defaultPlans } from '../billing/defaults.js';
import { defaultMenus } from '../menus/defaults.js';
import { permissionCatalogue } from '../permissions/catalogue.js';
import { defaultRoles, workspaceRoles } from '../permissions/roles-defaults.js';
import { defaultThemes } from '../themes/defaults.js';

/**
 * Brings a database up to the data the product ships with. It only adds what
 * is missing, so it runs at every start and never overwrites an admin's edits.
 */
export async function seed(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await seedPermissions(trx);
    await seedRoles(trx);
    await seedThemes(trx);
    await seedMenus(trx);
    await seedLocalizations(trx);
    await seedPlans(trx);
  });
}

async function seedPermissions(db: Kysely<Database>) {
  const now = nowIso();
  for (const p of permissionCatalogue) {
    await db
      .insertInto('permissions')
      .values({
        name: p.name,
        group: p.group,
        display_name: p.display_name,
        description: p.description,
        restrictions: JSON.stringify(p.restrictions ?? []),
        created_at: now,
      })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
}

async function seedRoles(db: Kysely<Database>) {
  const now = nowIso();
  for (const role of [...defaultRoles, ...workspaceRoles]) {
    const existing = await db.selectFrom('roles').select('id').where('name', '=', role.name).executeTakeFirst();
    if (existing) continue;
    const { id } = await db
      .insertInto('roles')
      .values({
        name: role.name,
        description: role.description,
        guests: role.guests ? 1 : 0,
        default: role.default ? 1 : 0,
        type: role.type ?? 'sitewide',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const grant of role.permissions) {
      const permission = await db.selectFrom('permissions').select('id').where('name', '=', grant.name).executeTakeFirstOrThrow();
      await db
        .insertInto('role_permissions')
        .values({ role_id: id, permission_id: permission.id, restrictions: JSON.stringify(grant.restrictions ?? []) })
        .execute();
    }
  }
}

async function seedThemes(db: Kysely<Database>) {
  const { count } = await db
    .selectFrom('themes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) > 0) return;
  const now = nowIso();
  for (const theme of defaultThemes) {
    await db
      .insertInto('themes')
      .values({
        name: theme.name,
        is_dark: theme.is_dark ? 1 : 0,
        default_light: theme.default_light ? 1 : 0,
        default_dark: theme.default_dark ? 1 : 0,
        colors: JSON.stringify(theme.colors),
        user_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

async function seedMenus(db: Kysely<Database>) {
  const { count } = await db
    .selectFrom('menus')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) > 0) return;
  const now = nowIso();
  for (const menu of defaultMenus) {
    await db
      .insertInto('menus')
      .values({
        name: menu.name,
        positions: JSON.stringify(menu.positions),
        items: JSON.stringify(menu.items),
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

/**
 * The shipped languages, and no copies of their lines: code is their fallback.
 * Copies an earlier release stored that still equal the shipped text are
 * removed, so a line reworded in code is not masked by a stale copy; an
 * admin's different text stays.
 */
async function seedLocalizations(db: Kysely<Database>) {
  const now = nowIso();
  for (const loc of shippedLocalizations) {
    await db
      .insertInto('localizations')
      .values({ language: loc.language, name: loc.name, created_at: now, updated_at: now })
      .onConflict((oc) => oc.column('language').doNothing())
      .execute();
    const { id } = await db.selectFrom('localizations').select('id').where('language', '=', loc.language).executeTakeFirstOrThrow();
    const stored = await db.selectFrom('localization_lines').select(['id', 'key', 'value']).where('localization_id', '=', id).execute();
    const lines: Record<string, string> = loc.lines;
    const copies = stored.filter((row) => lines[row.key] === row.value).map((row) => row.id);
    for (let i = 0; i < copies.length; i += 200) {
      await db
        .deleteFrom('localization_lines')
        .where('id', 'in', copies.slice(i, i + 200))
        .execute();
    }
  }
}

/** The starting plans (a free one and two paid ones), only into an empty plan list. */
async function seedPlans(db: Kysely<Database>) {
  const { count } = await db
    .selectFrom('products')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow();
  if (Number(count) > 0) return;
  const now = nowIso();
  for (const [position, plan] of defaultPlans.entries()) {
    const { id } = await db
      .insertInto('products')
      .values({
        name: plan.name,
        description: plan.description,
        feature_list: JSON.stringify(plan.feature_list),
        position,
        recommended: plan.recommended ? 1 : 0,
        free: plan.free ? 1 : 0,
        hidden: 0,
        available_space: plan.available_space,
        gateway_id: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const price of plan.prices) {
      await db
        .insertInto('prices')
        .values({ product_id: id, ...price, gateway_id: null, created_at: now, updated_at: now })
        .execute();
    }
  }
}
