/**
 * The headers every page of the app is served with (issue 10 finding 6). The
 * built app has no inline script, so scripts come from the site alone; the
 * human-check (reCAPTCHA) hosts are added only when the check is turned on.
 * Framing is allowed to the site itself (the appearance editor's preview)
 * and refused to everyone else. Style attributes stay allowed: components
 * position things with inline styles (virtualised lists, popovers).
 */
export const HUMAN_CHECK_HOSTS = ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'];

export interface PageHeaderOptions {
  humanCheck: boolean;
  /** The S3 store's origins: the browser PUTs direct uploads there and follows redirected downloads. */
  storeOrigins?: string[];
}

export function contentSecurityPolicy(options: PageHeaderOptions): string {
  const store = options.storeOrigins?.length ? ` ${options.storeOrigins.join(' ')}` : '';
  const scripts = ["'self'", ...(options.humanCheck ? HUMAN_CHECK_HOSTS : [])];
  const frames = ["'self'", ...(options.humanCheck ? ['https://www.google.com/recaptcha/'] : [])];
  return [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${store}`,
    `media-src 'self' blob:${store}`,
    "font-src 'self' data:",
    `connect-src 'self'${options.humanCheck ? ' https://www.google.com/recaptcha/' : ''}${store}`,
    `frame-src ${frames.join(' ')}`,
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

export function pageHeaders(options: PageHeaderOptions): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'X-Frame-Options': 'SAMEORIGIN',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Content-Type-Options': 'nosniff',
  };
}
