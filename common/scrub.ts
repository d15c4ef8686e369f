/**
 * What an error report may carry about a person: their id, nothing else
 * (issue 33). One set of rules for the server, the page and the service
 * worker: common/ is built into both.
 */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
const BEARER = /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi;
const COOKIE = /\b(cookie|set-cookie|authorization|x-xsrf-token)(["']?\s*[:=]\s*)[^\n,;}]+/gi;
/** Share-link ids, entry hashes, tokens: long runs of letters with digits. */
const OPAQUE_ID = /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{12,}\b/g;
/** A file name: something dot a short extension (report.pdf, "my photo.jpeg" keeps "my"). */
const FILE_NAME = /[^\s/\\"'`<>:|?*()[\]{}]+\.(?:[A-Za-z][A-Za-z0-9]{0,4})\b/g;
/** What a query string or fragment may hold (tokens, names): never kept. */
const QUERY = /([?#])[^\s"'`]*/g;

export function scrubText(text: string): string {
  return text
    .replace(EMAIL, '[email]')
    .replace(BEARER, '$1 [token]')
    .replace(COOKIE, '$1$2[removed]')
    .replace(QUERY, '$1[removed]')
    .replace(FILE_NAME, '[file]')
    .replace(OPAQUE_ID, '[id]');
}

/** A URL reduced to its path, ids and names scrubbed (breadcrumbs of fetches and navigations). */
export function scrubUrl(url: string): string {
  return scrubText(url.replace(/^[a-z]+:\/\/[^/]+/i, ''));
}

type Json = string | number | boolean | null | undefined | Json[] | { [key: string]: Json };

const DROPPED_KEYS = /^(cookies?|headers|authorization|password|token|email|name|file_?name|query_string|data|body)$/i;

/** Strings scrubbed everywhere in a structure; keys that only ever hold secrets dropped. */
export function scrubDeep<T>(value: T): T {
  const walk = (v: Json, depth: number): Json => {
    if (typeof v === 'string') return scrubText(v);
    if (depth > 8 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((item) => walk(item, depth + 1));
    const out: { [key: string]: Json } = {};
    for (const [key, inner] of Object.entries(v)) {
      if (!DROPPED_KEYS.test(key)) out[key] = walk(inner, depth + 1);
    }
    return out;
  };
  return walk(value as Json, 0) as T;
}

/** The parts of a Sentry event these rules touch (the SDKs' types differ by package; this is their common shape). */
export interface ScrubbableEvent {
  message?: string;
  transaction?: string;
  user?: { id?: string | number } & Record<string, unknown>;
  request?: { method?: string; url?: string };
  exception?: { values?: { value?: string; type?: string }[] };
  breadcrumbs?: { message?: string; data?: Record<string, unknown> }[];
  extra?: Record<string, unknown>;
  contexts?: Record<string, unknown>;
  tags?: Record<string, unknown>;
}

/** Sentry's beforeSend: user id only, no request data but the method, every message scrubbed. */
export function scrubEvent<E extends ScrubbableEvent>(event: E): E {
  if (event.user) event.user = event.user.id === undefined ? {} : { id: event.user.id };
  if (event.request) {
    const { method, url } = event.request;
    event.request = { ...(method ? { method } : {}), ...(url ? { url: scrubUrl(url) } : {}) };
  }
  if (event.message) event.message = scrubText(event.message);
  for (const value of event.exception?.values ?? []) {
    if (value.value) value.value = scrubText(value.value);
  }
  if (event.breadcrumbs) event.breadcrumbs = event.breadcrumbs.map((crumb) => scrubBreadcrumb(crumb));
  if (event.extra) event.extra = scrubDeep(event.extra);
  if (event.contexts) {
    const { trace, runtime, os, device, app, browser, culture, cloud_resource } = event.contexts;
    event.contexts = Object.fromEntries(
      Object.entries({ trace, runtime, os, device, app, browser, culture, cloud_resource }).filter(([, v]) => v !== undefined),
    );
  }
  return event;
}

export function scrubBreadcrumb<B extends { message?: string; data?: Record<string, unknown> }>(crumb: B): B {
  const out = { ...crumb };
  if (out.message) out.message = scrubText(out.message);
  if (out.data) {
    const data: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(out.data)) {
      if (key === 'url' || key === 'from' || key === 'to') data[key] = typeof value === 'string' ? scrubUrl(value) : value;
      else if (!DROPPED_KEYS.test(key)) data[key] = scrubDeep(value);
    }
    out.data = data;
  }
  return out;
}
