import { createRequire } from 'node:module';
import countriesLib from 'i18n-iso-countries';

/**
 * Country names come from i18n-iso-countries (maintained ISO 3166 data) and
 * timezones from the runtime's own IANA database (Intl), never hand-typed lists.
 */
const require = createRequire(import.meta.url);
const registered = new Set<string>();

function ensureLocale(language: string): string {
  const lang = language.split('-')[0]!.toLowerCase();
  if (registered.has(lang)) return lang;
  try {
    countriesLib.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`));
    registered.add(lang);
    return lang;
  } catch {
    return lang === 'en' ? 'en' : ensureLocale('en');
  }
}

export interface Country {
  code: string;
  name: string;
}

export function countries(language: string): Country[] {
  const lang = ensureLocale(language);
  const names = countriesLib.getNames(lang, { select: 'official' });
  return Object.entries(names)
    .map(([code, name]) => ({ code: code.toLowerCase(), name }))
    .sort((a, b) => a.name.localeCompare(b.name, lang));
}

export interface TimezoneOption {
  value: string;
  text: string;
}

/** IANA zones grouped by region ("Europe", "America", …), labelled "(UTC+03:00) Istanbul". */
export function timezones(now = new Date()): Record<string, TimezoneOption[]> {
  const groups: Record<string, TimezoneOption[]> = {};
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    const [region, ...rest] = zone.split('/');
    const group = rest.length ? region! : 'Other';
    const place = (rest.length ? rest.join(' / ') : zone).replace(/_/g, ' ');
    (groups[group] ??= []).push({ value: zone, text: `(${utcOffset(zone, now)}) ${place}` });
  }
  if (!Object.values(groups).some((list) => list.some((z) => z.value === 'UTC'))) {
    (groups.Other ??= []).unshift({ value: 'UTC', text: '(UTC+00:00) UTC' });
  }
  return groups;
}

function utcOffset(zone: string, now: Date): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(now)
    .find((p) => p.type === 'timeZoneName')?.value;
  // "GMT+03:00" → "UTC+03:00"; "GMT" alone is UTC itself.
  return !part || part === 'GMT' ? 'UTC+00:00' : part.replace('GMT', 'UTC');
}
