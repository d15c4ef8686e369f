import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden, NotFound } from '../../lib/errors.js';
import { hasPermission } from '../access/policy.js';
import type { SettingsService } from '../settings/service.js';

export const API_DOCS_PREFIX = '/api/v1/docs';

/**
 * The interactive API documentation (spec §2 route "api-docs"): only when the
 * API feature is integrated and the caller has `api.access`. A signed-out
 * browser is sent to /login, like the app's own guard does.
 */
export const apiDocsRoutes: FastifyPluginAsync<{ settings: Pick<SettingsService, 'get'> }> = async (app, { settings }) => {
  async function guard(request: FastifyRequest, reply: FastifyReply) {
    if ((await settings.get('api.integrated')) !== true) throw NotFound();
    if (hasPermission(request.actor, 'api.access')) return;
    if (!request.user && request.headers.accept?.includes('text/html')) {
      return reply.redirect(`/login?redirect=${encodeURIComponent('/api-docs')}`, 302);
    }
    throw Forbidden();
  }

  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PREFIX,
    // Folded: drawing every call of the API expanded (over 150) kept the page blank for seconds.
    uiConfig: { docExpansion: 'none', deepLinking: true, withCredentials: true },
    uiHooks: { onRequest: guard },
    staticCSP: true,
  });
};
