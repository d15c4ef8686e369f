// Types the app adds to Fastify (request context, signed-in user, services).
import type { UserWithAccess } from './modules/users/repository.js';
import type { Services } from './services.js';

export interface RequestContext {
  /** The workspace a drive call is scoped to (`?workspaceId=`); 0 is the personal workspace. */
  workspaceId: number | null;
  /** Relations asked for with `?with=a,b`. */
  with: string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
  interface FastifyRequest {
    ctx: RequestContext;
    user: UserWithAccess | null;
    /** How the caller proved who they are; bearer tokens skip the XSRF check. */
    authVia: 'session' | 'token' | null;
    sessionToken: string | null;
  }
  interface FastifyContextConfig {
    /** Set to false on routes that other sites call (webhooks). */
    xsrf?: boolean;
  }
}
