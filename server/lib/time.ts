/** Timestamps are stored and sent as ISO-8601 UTC strings on every dialect. */
export const nowIso = (): string => new Date().toISOString();

export const addMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

/** Whether this is an IANA time zone the runtime knows ("Europe/Paris"), as a setting or a profile may name one. */
export function isTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
