import { enLines } from './lines/en.js';
import { trLines } from './lines/tr.js';

/**
 * The languages the product ships with. Their lines in code are the source and
 * the fallback: the database holds only what an admin changed, so a line
 * reworded in a new release reaches every site that did not override it.
 */
export const shippedLocalizations = [
  { language: 'en', name: 'English', lines: enLines },
  { language: 'tr', name: 'Türkçe', lines: trLines },
] as const;

/** English is the source every translation is made from; its keys are every line there is. */
export const SOURCE_LANGUAGE = 'en';
export const sourceLines: Readonly<Record<string, string>> = enLines;

export function shippedLines(language: string): Readonly<Record<string, string>> {
  return shippedLocalizations.find((loc) => loc.language === language)?.lines ?? {};
}
