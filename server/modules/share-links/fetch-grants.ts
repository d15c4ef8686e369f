import { signValue, verifySignedValue } from '../../lib/tokens.js';

/**
 * A visitor's fetch grants on one link: the files whose bytes this browser
 * already took from the link's download allowance, each until its window
 * ends. While a file's grant lasts, the same browser's later fetches of it
 * (the download after a preview, a resumed or seeking range, a reload) are
 * served without counting again; a fetch without one counts, whatever its
 * range. The grants travel in a signed cookie on the link's own path, so a
 * visitor who drops the cookie is only counted more, never less.
 */
export const FETCH_COOKIE = 'link_fetch';
/** Long enough to resume a large download over a slow line; short enough that a copied cookie soon ends. */
export const FETCH_GRANT_MS = 6 * 60 * 60 * 1000;
/** The newest grants kept (a cookie stays small however many files a folder link shows). */
const MAX_GRANTS = 20;

export type FetchGrants = Map<string, number>;

/** The live grants in the cookie, by entry hash, if it was made for this link. */
export function readFetchGrants(appKey: string, linkId: number, cookie: string | undefined): FetchGrants {
  const grants: FetchGrants = new Map();
  const value = verifySignedValue(appKey, cookie);
  if (!value) return grants;
  const [forLink, list = ''] = value.split('|');
  if (forLink !== String(linkId)) return grants;
  const now = Date.now();
  for (const item of list.split(',')) {
    const [hash, until] = item.split(':');
    if (hash && Number(until) > now) grants.set(hash, Number(until));
  }
  return grants;
}

/** The cookie's new value with a fresh grant on `hash` (the oldest dropped past the cap), and how long it lives. */
export function addFetchGrant(appKey: string, linkId: number, grants: FetchGrants, hash: string): { value: string; maxAgeSeconds: number } {
  const until = Date.now() + FETCH_GRANT_MS;
  const kept = [...grants].filter(([held]) => held !== hash).sort((a, b) => a[1] - b[1]);
  const list = [...kept.slice(-(MAX_GRANTS - 1)), [hash, until] as const].map(([held, end]) => `${held}:${end}`).join(',');
  return { value: signValue(appKey, `${linkId}|${list}`, FETCH_GRANT_MS), maxAgeSeconds: FETCH_GRANT_MS / 1000 };
}
