/**
 * A path of this site, as a browser will read it, or null.
 *
 * Browsers clean an address before parsing it (WHATWG URL, "basic URL
 * parser"): leading and trailing C0 controls and spaces go, and every tab,
 * line feed and carriage return anywhere inside goes too; for http(s) a
 * backslash is a slash. So `/<TAB>/evil.example`, `/<LF>/evil.example` and
 * `/\evil.example` all lead to another host. Every check of "a path inside the
 * app" (menus, policies, notification actions, page images) decides on the
 * cleaned text and keeps that text, so what is stored is what was checked.
 *
 * The page has its own copy (src/api/same-site-path.ts): the browser bundle
 * never imports the server. tests/server/lib/same-site-path.test.ts holds both
 * to one table.
 */
export function sameSitePath(value: string): string | null {
  // eslint-disable-next-line no-control-regex -- the controls are exactly what the URL parser strips
  const cleaned = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  return /^\/(?![/\\])/.test(cleaned) ? cleaned : null;
}
