// Tiny cookie helpers: the XSRF token, the active workspace and the cookie
// notice all live in cookies the server (or the next visit) must see.
// On the server (src/entry-server.tsx) there is no document: a render reads the request's Cookie header.
let serverCookies: string | null = null;

/** The Cookie header the server's render of a page reads (null after it). */
export function setServerCookies(header: string | null): void {
  serverCookies = header;
}

export function readCookie(name: string, source: string = typeof document === 'undefined' ? (serverCookies ?? '') : document.cookie): string | null {
  for (const part of source.split(';')) {
    const [rawKey, ...rest] = part.trim().split('=');
    if (rawKey === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export function writeCookie(name: string, value: string, days: number): void {
  const maxAge = Math.round(days * 24 * 60 * 60);
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Lax`;
}
