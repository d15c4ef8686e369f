import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/** TWO_FACTOR: the provider vouched, and the sign-in waits for its second step (the app shows it). */
export type SocialAuthStatus = 'SUCCESS' | 'ALREADY_LOGGED_IN' | 'REQUEST_PASSWORD' | 'TWO_FACTOR' | 'ERROR';

/**
 * The page the provider's popup ends on: it hands the result to the window
 * that opened it (spec §4 "Social login": a `social-auth` message) and closes.
 * The message goes only to this site's own origin; the script is allowed by
 * its hash, nothing else may run.
 */
export function sendPopupResult(reply: FastifyReply, origin: string, status: SocialAuthStatus, callbackData: Record<string, unknown> = {}) {
  const message = JSON.stringify({ type: 'social-auth', status, callbackData })
    // JSON inside <script>: never let data close the tag.
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  const script = `(function(){var m=${message};if(window.opener){window.opener.postMessage(m,${JSON.stringify(origin)});window.close();}else{document.getElementById('fallback').hidden=false;}})();`;
  const hash = createHash('sha256').update(script).digest('base64');
  reply
    .header('Content-Security-Policy', `default-src 'none'; script-src 'sha256-${hash}'`)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8');
  return reply.send(
    `<!doctype html><html><head><meta charset="utf-8"><title>Signing in…</title></head><body>` +
      `<p id="fallback" hidden>You can close this window and return to the app.</p><script>${script}</script></body></html>`,
  );
}
