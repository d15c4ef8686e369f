/** Timestamps are stored and sent as ISO-8601 UTC strings on every dialect. */
let lastMs = Number.NaN;
let lastIso = '';
/** The string is made once a millisecond (a new file's statements ask for it several times). */
export const nowIso = (): string => {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
};

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
