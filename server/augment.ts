// Types the app adds to Fastify (request context, caller, what the request plugins look up).
import type { Actor } from './modules/access/actor.js';
import type { TokenScope } from './modules/auth/token-scopes.js';
import type { UserWithAccess } from './modules/users/repository.js';
import type { RequestContext } from './plugins/request-context.js';
import type { LinesSource } from './plugins/request-lines.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's secret key (settings), for XSRF tokens bound to a session (plugins/xsrf.ts). */
    appKey(): Promise<string>;
    /** Where a caller's lines are looked up, for messages and error answers (plugins/request-lines.ts). */
    linesSource: LinesSource;
  }
  interface FastifyRequest {
    ctx: RequestContext;
    /** Who is calling, for every access decision (modules/access). */
    actor: Actor;
    /** The signed-in account's row, for the screens about the account itself; null for guests. */
    user: UserWithAccess | null;
    /** How the caller proved who they are; bearer tokens skip the XSRF check. */
    authVia: 'session' | 'token' | null;
    sessionToken: string | null;
    /** The session cookie's hash as the sessions table keys it, once worked out (plugins/cookies.ts sessionIdOf); null before. */
    sessionCookieId: string | null;
    /** A bearer token's scopes; null for sessions and guests. */
    tokenScopes: TokenScope[] | null;
    /** When the session's sign-in happened (a fresh sign-in can confirm account changes). */
    signedInAt: string | null;
    /** The admin who signed in as this user ("sign in as", support); null otherwise. */
    impersonatorId: number | null;
    /** A session whose role requires a second factor it has not set up: it reaches only the set-up (issue 36). */
    twoFactorSetupPending: boolean;
  }
  interface FastifyContextConfig {
    /** Set to false on routes that other sites call (webhooks). */
    xsrf?: boolean;
  }
}
