import { defaultThemes } from './defaults.js';

/** The style variables the app's styles read (tailwind.config maps them to colour names). */
export const THEME_VARIABLES: readonly string[] = Object.keys(defaultThemes[0]!.colors);

export const COLOR_INVALID = 'Enter a colour as #rrggbb or three numbers from 0 to 255 (such as 26 115 232).';

/**
 * A colour as the app stores it: an RGB triplet "r g b" (so styles can add
 * alpha). Accepts that or #rgb / #rrggbb; anything else is null.
 */
export function normaliseColor(input: string): string | null {
  const value = input.trim();
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value);
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((d) => d + d) : hex[1]!.match(/../g)!;
    return digits.map((d) => parseInt(d, 16)).join(' ');
  }
  const parts = value.split(/\s+/);
  if (parts.length !== 3 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.map(Number).join(' ');
}
