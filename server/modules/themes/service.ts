import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { Conflict, NotFound, ValidationError, type FieldErrors } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import { defaultThemes } from './defaults.js';
import { clearDefault, deleteTheme, insertTheme, siteTheme, siteThemes, updateTheme, type Theme } from './repository.js';
import { COLOR_INVALID, THEME_VARIABLES, normaliseColor } from './colors.js';

export const THEME_NOT_FOUND = 'This theme does not exist.';
export const THEME_IS_DEFAULT = 'A default theme cannot be deleted. Make another theme the default first.';
export const THEME_LAST = 'The last theme cannot be deleted.';
export const UNKNOWN_COLOR = 'This is not a colour the app uses.';
export const DEFAULT_LIGHT_DARK = 'The default light theme cannot be a dark theme.';
export const DEFAULT_DARK_LIGHT = 'The default dark theme must be a dark theme.';

export interface ThemeInput {
  name: string;
  is_dark: boolean;
  default_light?: boolean | undefined;
  default_dark?: boolean | undefined;
  colors: Record<string, string>;
}

export { presentTheme, type Theme } from './repository.js';

/**
 * Site themes (spec §3 Theme). Exactly one default light and one default dark
 * theme exist once set: marking a theme default unmarks the previous one.
 * Every write goes through here (bootstrap data caches themes).
 */
export class ThemesService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<Theme[]> {
    return siteThemes(this.db);
  }

  async get(id: number): Promise<Theme> {
    const theme = await siteTheme(this.db, id);
    if (!theme) throw NotFound(THEME_NOT_FOUND);
    return theme;
  }

  async create(input: ThemeInput): Promise<Theme> {
    // A new theme starts from the shipped one of its kind, so no variable is ever missing.
    const base = defaultThemes.find((t) => t.is_dark === input.is_dark) ?? defaultThemes[0]!;
    const colors = { ...base.colors, ...validate(input) };
    const now = nowIso();
    const id = await this.db.transaction().execute(async (trx) => {
      await clearDefaults(trx, input);
      return insertTheme(trx, {
        name: input.name,
        is_dark: input.is_dark ? 1 : 0,
        default_light: input.default_light ? 1 : 0,
        default_dark: input.default_dark ? 1 : 0,
        colors: JSON.stringify(colors),
        user_id: null,
        created_at: now,
        updated_at: now,
      });
    });
    return this.get(id);
  }

  async update(id: number, input: ThemeInput): Promise<Theme> {
    const current = await this.get(id);
    const colors = validate({
      ...input,
      default_light: input.default_light ?? current.default_light,
      default_dark: input.default_dark ?? current.default_dark,
    });
    await this.db.transaction().execute(async (trx) => {
      await clearDefaults(trx, input);
      await updateTheme(trx, id, {
        name: input.name,
        is_dark: input.is_dark ? 1 : 0,
        default_light: (input.default_light ?? current.default_light) ? 1 : 0,
        default_dark: (input.default_dark ?? current.default_dark) ? 1 : 0,
        colors: JSON.stringify({ ...current.colors, ...colors }),
        updated_at: nowIso(),
      });
    });
    return this.get(id);
  }

  async delete(id: number): Promise<Theme> {
    const theme = await this.get(id);
    if (theme.default_light || theme.default_dark) throw Conflict(THEME_IS_DEFAULT);
    if ((await this.list()).length <= 1) throw Conflict(THEME_LAST);
    await deleteTheme(this.db, id);
    return theme;
  }
}

/** Field errors for unknown variables, malformed colours and impossible defaults; the colours normalised. */
function validate(input: ThemeInput): Record<string, string> {
  const errors: FieldErrors = {};
  const colors: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.colors)) {
    if (!THEME_VARIABLES.includes(name)) {
      errors[`colors.${name}`] = [UNKNOWN_COLOR];
      continue;
    }
    const color = normaliseColor(value);
    if (color) colors[name] = color;
    else errors[`colors.${name}`] = [COLOR_INVALID];
  }
  if (input.default_light && input.is_dark) errors.default_light = [DEFAULT_LIGHT_DARK];
  if (input.default_dark && !input.is_dark) errors.default_dark = [DEFAULT_DARK_LIGHT];
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return colors;
}

async function clearDefaults(trx: Kysely<Database>, input: ThemeInput): Promise<void> {
  if (input.default_light) await clearDefault(trx, 'default_light');
  if (input.default_dark) await clearDefault(trx, 'default_dark');
}
