// Spec §9: the user's timezone, else the site default, else the browser's.
export function resolveTimezone(
  userTimezone: string | null | undefined,
  defaultTimezone: string | null | undefined,
  browserTimezone: string = Intl.DateTimeFormat().resolvedOptions().timeZone,
): string {
  return userTimezone || defaultTimezone || browserTimezone;
}
