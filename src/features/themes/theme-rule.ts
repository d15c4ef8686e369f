import type { Bootstrap, Theme } from '../../api/bootstrap-types';

export const ACTIVE_THEME_KEY = 'be-active-theme';

type ThemeData = Pick<Bootstrap, 'themes' | 'settings'>;

/**
 * Which theme is active. A stored choice counts only while users may change
 * themes (settings.themes.user_change); otherwise the server's pick, then the
 * site default, then the default light theme, then the first one.
 */
export function resolveActiveTheme(data: ThemeData, storedId: number | null): Theme | undefined {
  const all = data.themes.all;
  const byId = (id: number | null | undefined) => (id == null ? undefined : all.find((t) => t.id === id));
  if (data.settings.themes.user_change) {
    const stored = byId(storedId);
    if (stored) return stored;
  }
  return byId(data.themes.selectedThemeId) ?? byId(data.settings.themes.default_id) ?? all.find((t) => t.default_light) ?? all[0];
}

/** The theme the light/dark toggle switches to, or undefined when not allowed. */
export function toggledTheme(data: ThemeData, current: Theme | undefined): Theme | undefined {
  if (!data.settings.themes.user_change) return undefined;
  const wantDark = !current?.is_dark;
  const all = data.themes.all;
  return all.find((t) => t.is_dark === wantDark && (wantDark ? t.default_dark : t.default_light)) ?? all.find((t) => t.is_dark === wantDark);
}

export function readStoredThemeId(storage: Pick<Storage, 'getItem'> = localStorage): number | null {
  const raw = storage.getItem(ACTIVE_THEME_KEY);
  if (raw === null) return null;
  const id = Number(raw);
  return Number.isFinite(id) ? id : null;
}

/** Saves the choice; refused (returns false) when users may not change themes. */
export function storeThemeChoice(data: ThemeData, themeId: number, storage: Pick<Storage, 'setItem'> = localStorage): boolean {
  if (!data.settings.themes.user_change) return false;
  storage.setItem(ACTIVE_THEME_KEY, String(themeId));
  return true;
}

/** Colours become CSS variables on <html>; `dark` drives Tailwind's dark variant. */
export function applyTheme(theme: Pick<Theme, 'colors' | 'is_dark'>, root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(theme.colors)) {
    root.style.setProperty(name, value);
  }
  root.classList.toggle('dark', theme.is_dark);
  root.style.colorScheme = theme.is_dark ? 'dark' : 'light';
}
