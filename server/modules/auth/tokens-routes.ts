import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Forbidden, NotFound } from '../../lib/errors.js';
import { currentUser, requirePermission } from '../../plugins/guards.js';
import { mayCreateCredentials } from '../access/policy.js';
import { accessTokenSchema, createTokenBody } from '../users/schemas.js';
import type { AccessTokensService } from './access-tokens.js';

export const NO_TOKENS_WHILE_SIGNED_IN_AS = 'You cannot create access tokens while signed in as someone else.';

/** Personal access tokens for API clients: shown once at creation, then only listed and revoked. */
export const accessTokenRoutes: FastifyPluginAsyncZod<{ accessTokens: AccessTokensService }> = async (app, { accessTokens }) => {
  app.addHook('onRequest', requirePermission('api.access'));

  app.get(
    '/access-tokens',
    { schema: { tags: ['access tokens'], summary: 'Your tokens', response: { 200: z.object({ tokens: z.array(accessTokenSchema) }) } } },
    async (request) => ({ tokens: await accessTokens.list(currentUser(request).id) }),
  );

  app.post(
    '/access-tokens',
    {
      schema: {
        tags: ['access tokens'],
        summary: 'Create a token; plainTextToken is shown only in this answer',
        body: createTokenBody,
        response: { 200: z.object({ token: accessTokenSchema, plainTextToken: z.string() }) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // Refused rather than ended on "stop": nothing would outlive the impersonation, and support never needs the user's credentials.
      if (!mayCreateCredentials(request)) throw Forbidden(NO_TOKENS_WHILE_SIGNED_IN_AS);
      const expires = request.body.expires_at ? new Date(request.body.expires_at).toISOString() : null;
      const { id, token } = await accessTokens.create(user.id, request.body.name, expires, request.body.scopes);
      const created = (await accessTokens.list(user.id)).find((t) => t.id === id)!;
      return { token: created, plainTextToken: token };
    },
  );

  app.delete(
    '/access-tokens/:id',
    {
      schema: {
        tags: ['access tokens'],
        summary: 'Revoke a token',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 200: z.object({ message: z.string() }) },
      },
    },
    async (request) => {
      if (!(await accessTokens.revoke(currentUser(request).id, request.params.id))) throw NotFound('This token does not exist.');
      return { message: 'Token revoked' };
    },
  );
};
