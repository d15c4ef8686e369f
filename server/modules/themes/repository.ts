import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database, ThemeRow, ThemesTable } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';

/** The SQL of site themes (rows without a user_id); the rules are service.ts's. */
type Executor = Kysely<Database>;

export interface Theme {
  id: number;
  name: string;
  is_dark: boolean;
  default_light: boolean;
  default_dark: boolean;
  colors: Record<string, string>;
}

export const presentTheme = (row: ThemeRow): Theme => ({
  id: row.id,
  name: row.name,
  is_dark: row.is_dark === 1,
  default_light: row.default_light === 1,
  default_dark: row.default_dark === 1,
  colors: parseJson<Record<string, string>>(row.colors, {}),
});

/** Every site theme in the order they were made. */
export async function siteThemes(db: Executor): Promise<Theme[]> {
  return (await db.selectFrom('themes').selectAll().where('user_id', 'is', null).orderBy('id').execute()).map(presentTheme);
}

export async function siteTheme(db: Executor, id: number): Promise<Theme | undefined> {
  const row = await db.selectFrom('themes').selectAll().where('id', '=', id).where('user_id', 'is', null).executeTakeFirst();
  return row && presentTheme(row);
}

export async function insertTheme(db: Executor, values: Insertable<ThemesTable>): Promise<number> {
  return (await db.insertInto('themes').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

export async function updateTheme(db: Executor, id: number, changes: Updateable<ThemesTable>): Promise<void> {
  await db.updateTable('themes').set(changes).where('id', '=', id).execute();
}

export async function deleteTheme(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('themes').where('id', '=', id).execute();
}

/** No site theme is the default light (or dark) one any more: another is about to be. */
export async function clearDefault(db: Executor, which: 'default_light' | 'default_dark'): Promise<void> {
  await db
    .updateTable('themes')
    .set({ [which]: 0 })
    .where('user_id', 'is', null)
    .execute();
}
