/**
 * A path of this site, as a browser will read it, or null.
 *
 * Browsers clean an address before parsing it (WHATWG URL, "basic URL
 * parser"): leading and trailing C0 controls and spaces go, and every tab,
 * line feed and carriage return anywhere inside goes too; for http(s) a
 * backslash is a slash. So `/<TAB>/evil.example`, `/<LF>/evil.example` and
 * `/\evil.example` all lead to another host. Every check of "a path inside the
 * app" (the server's menus, policies and notification actions, the page's
 * sign-in redirects and notification clicks) decides on the cleaned text and
 * keeps or goes to that text, so what is used is what was checked.
 */
export function sameSitePath(value: string): string | null {
  // eslint-disable-next-line no-control-regex -- the controls are exactly what the URL parser strips
  const cleaned = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  return /^\/(?![/\\])/.test(cleaned) ? cleaned : null;
}
