import { translate } from './i18n';

// Spec §9: under a minute reads 'a few seconds ago'; a month is 4.34524 weeks.
// The phrases are server lines (':count minutes ago' → 'singular|plural'), so
// every language the server ships gets relative times too; the English forms
// below stand in when a line is missing.
const WEEKS_PER_MONTH = 4.34524;
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = WEEKS_PER_MONTH * WEEK;
const YEAR = 12 * MONTH;

const YEARS = { limit: Infinity, size: YEAR, unit: 'year' } as const;
const UNITS = [
  { limit: HOUR, size: MINUTE, unit: 'minute' },
  { limit: DAY, size: HOUR, unit: 'hour' },
  { limit: WEEK, size: DAY, unit: 'day' },
  { limit: MONTH, size: WEEK, unit: 'week' },
  { limit: YEAR, size: MONTH, unit: 'month' },
  YEARS,
] as const;

export function formatRelativeTime(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === 'string' ? new Date(date) : date;
  const seconds = Math.abs(now.getTime() - then.getTime()) / 1000;
  if (seconds < MINUTE) return translate('a few seconds ago');
  const { size, unit } = UNITS.find((u) => seconds < u.limit) ?? YEARS;
  const count = Math.floor(seconds / size);
  return translate(`:count ${unit}s ago`, { count, defaultValue: `:count ${unit} ago|:count ${unit}s ago` });
}
