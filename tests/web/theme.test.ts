import { beforeEach, describe, expect, it } from 'vitest';
import { ACTIVE_THEME_KEY, applyTheme, readStoredThemeId, resolveActiveTheme, storeThemeChoice, toggledTheme } from '../../src/features/themes/theme-rule';
import { darkTheme, lightTheme, makeBootstrap } from './fixtures';

describe('theme rule', () => {
  beforeEach(() => localStorage.clear());

  const withChange = (user_change: boolean, selectedThemeId: number | null = null) => {
    const data = makeBootstrap();
    return { ...data, themes: { ...data.themes, selectedThemeId }, settings: { ...data.settings, themes: { user_change, default_id: null } } };
  };

  it('uses the stored choice only when users may change themes', () => {
    expect(resolveActiveTheme(withChange(true), darkTheme.id)).toBe(darkTheme);
    expect(resolveActiveTheme(withChange(false), darkTheme.id)).toBe(lightTheme);
  });

  it("falls back to the server's pick, then the default light theme", () => {
    expect(resolveActiveTheme(withChange(true, darkTheme.id), null)).toBe(darkTheme);
    expect(resolveActiveTheme(withChange(true), null)).toBe(lightTheme);
  });

  it('toggles between the default light and dark themes and stores under be-active-theme', () => {
    const data = withChange(true);
    const next = toggledTheme(data, lightTheme);
    expect(next).toBe(darkTheme);
    expect(storeThemeChoice(data, darkTheme.id)).toBe(true);
    expect(localStorage.getItem(ACTIVE_THEME_KEY)).toBe(String(darkTheme.id));
    expect(readStoredThemeId()).toBe(darkTheme.id);
    expect(toggledTheme(data, darkTheme)).toBe(lightTheme);
  });

  it('refuses to change when themes.user_change is off', () => {
    const data = withChange(false);
    expect(toggledTheme(data, lightTheme)).toBeUndefined();
    expect(storeThemeChoice(data, darkTheme.id)).toBe(false);
    expect(localStorage.getItem(ACTIVE_THEME_KEY)).toBeNull();
  });

  it('applies colours as CSS variables and toggles the dark class', () => {
    const root = document.createElement('html');
    applyTheme(darkTheme, root);
    expect(root.style.getPropertyValue('--be-primary')).toBe('96 165 250');
    expect(root.classList.contains('dark')).toBe(true);
    applyTheme(lightTheme, root);
    expect(root.classList.contains('dark')).toBe(false);
  });
});
