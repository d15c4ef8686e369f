import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clearSessionCookie, setSessionCookie } from '../../plugins/cookies.js';
import { LOCALE_COOKIE } from '../localizations/routes.js';
import { REMEMBER_LIFETIME_MS } from './sessions.js';
import { bootstrapDataResponse, loginBody } from './schemas.js';

/** `/auth/*`: signing in and out. Registration and recovery arrive with the accounts work. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { auth, sessions, users, bootstrap } = app.services;

  app.post(
    '/login',
    { schema: { tags: ['auth'], summary: 'Sign in', body: loginBody, response: { 200: bootstrapDataResponse } } },
    async (request, reply) => {
      const user = await auth.checkCredentials(request.body.email, request.body.password);
      // Rotate: whatever session the browser had before is ended, never reused.
      if (request.sessionToken) await sessions.end(request.sessionToken);
      const session = await sessions.start(user.id, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? null,
        remember: request.body.remember,
      });
      setSessionCookie(request, reply, session.token, session.remember ? REMEMBER_LIFETIME_MS / 1000 : null);
      const withAccess = await users.withAccess(user);
      return { bootstrapData: await bootstrap.build(withAccess, request.cookies[LOCALE_COOKIE] ?? null) };
    },
  );

  app.post(
    '/logout',
    { schema: { tags: ['auth'], summary: 'Sign out', response: { 200: bootstrapDataResponse } } },
    async (request, reply) => {
      if (request.sessionToken) await sessions.end(request.sessionToken);
      clearSessionCookie(request, reply);
      return { bootstrapData: await bootstrap.build(null, request.cookies[LOCALE_COOKIE] ?? null) };
    },
  );
};
