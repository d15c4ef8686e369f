/** Timestamps are stored and sent as ISO-8601 UTC strings on every dialect. */
export const nowIso = (): string => new Date().toISOString();

export const addMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();
