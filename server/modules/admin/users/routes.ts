import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie, isSecure, setSessionCookie } from '../../../plugins/cookies.js';
import { requirePermission, requireUser } from '../../../plugins/guards.js';
import { rotateXsrfForGuest, rotateXsrfForSession } from '../../../plugins/xsrf.js';
import { bootstrapSchema } from '../../bootstrap/schemas.js';
import { LOCALE_COOKIE } from '../../localizations/locale-cookie.js';
import { proofOf } from '../../users/proof.js';
import { callerOf } from '../caller.js';
import {
  adminUserResponse,
  bulkUpdateBody,
  createUserBody,
  deleteUsersBody,
  impersonateBody,
  okResponse,
  resetTwoFactorBody,
  updateUserBody,
  userIdParam,
  userListQuery,
  userPage,
} from './schemas.js';
import type { Admin } from '../build.js';

/** The admin's own session, kept while they are signed in as someone else (one click brings it back). */
export const ADMIN_SESSION_COOKIE = 'drive_admin_session';
const tags = ['admin: users'];
const bootstrapAnswer = z.object({ bootstrapData: bootstrapSchema });

export const adminUserRoutes: FastifyPluginAsyncZod<Pick<Admin, 'adminUsers' | 'impersonation'>> = async (app, { adminUsers, impersonation }) => {
  app.get(
    '/users',
    {
      onRequest: requirePermission('users.view'),
      schema: { tags, summary: 'Users: a page, searched, filtered and sorted', querystring: userListQuery, response: { 200: userPage } },
    },
    async (request) => adminUsers.list(request.query),
  );

  app.get(
    '/users/:id',
    {
      onRequest: requirePermission('users.view'),
      schema: { tags, summary: 'One user with roles, direct permissions and space', params: userIdParam, response: { 200: adminUserResponse } },
    },
    async (request) => ({ user: await adminUsers.get(request.params.id) }),
  );

  app.post(
    '/users',
    { onRequest: requirePermission('users.create'), schema: { tags, summary: 'Create a user', body: createUserBody, response: { 200: adminUserResponse } } },
    async (request) => {
      const { current_password: currentPassword, ...input } = request.body;
      return { user: await adminUsers.create(callerOf(request), input, proofOf(request, currentPassword)) };
    },
  );

  app.put(
    '/users/:id',
    {
      onRequest: requirePermission('users.update'),
      schema: {
        tags,
        summary: 'Edit a user: profile, roles, direct permissions, space',
        params: userIdParam,
        body: updateUserBody,
        response: { 200: adminUserResponse },
      },
    },
    async (request) => {
      const { current_password: currentPassword, ...input } = request.body;
      return { user: await adminUsers.update(callerOf(request), request.params.id, input, proofOf(request, currentPassword)) };
    },
  );

  app.post(
    '/users/bulk-update',
    {
      onRequest: requirePermission('users.update'),
      schema: { tags, summary: 'Suspend, unsuspend or verify several users', body: bulkUpdateBody, response: { 200: okResponse } },
    },
    async (request) => {
      const { ids, action } = request.body;
      if (action === 'verify') await adminUsers.verify(callerOf(request), ids);
      else await adminUsers.suspend(callerOf(request), ids, action === 'suspend');
      return { message: 'Updated users' };
    },
  );

  app.post(
    '/users/:id/password-reset',
    {
      onRequest: requirePermission('users.update'),
      schema: { tags, summary: 'Send the user a password reset link', params: userIdParam, response: { 200: okResponse } },
    },
    async (request) => {
      await adminUsers.sendPasswordReset(callerOf(request), request.params.id);
      return { message: 'Email sent' };
    },
  );

  app.post(
    '/users/:id/two-factor/reset',
    {
      onRequest: requirePermission('users.update'),
      schema: {
        tags,
        summary: 'Remove every second factor of a user who lost them (recorded); needs your password or your own second factor',
        params: userIdParam,
        body: resetTwoFactorBody,
        response: { 200: okResponse },
      },
    },
    async (request) => {
      await adminUsers.resetTwoFactor(callerOf(request), request.params.id, proofOf(request, request.body?.current_password, request.body?.second_factor));
      return { message: 'Two-factor sign-in was reset' };
    },
  );

  app.post(
    '/users/bulk-delete',
    {
      onRequest: requirePermission('users.delete'),
      schema: { tags, summary: 'Delete users and their files', body: deleteUsersBody, response: { 200: okResponse } },
    },
    async (request) => {
      await adminUsers.delete(callerOf(request), request.body.ids, proofOf(request, request.body.current_password));
      return { message: 'Deleted users' };
    },
  );

  app.post(
    '/users/:id/impersonate',
    {
      onRequest: requirePermission('users.impersonate'),
      schema: {
        tags,
        summary: 'Sign in as the user, for support (recorded)',
        params: userIdParam,
        body: impersonateBody,
        response: { 200: bootstrapAnswer },
      },
    },
    async (request, reply) => {
      const started = await adminUsers.impersonate(
        callerOf(request),
        request.params.id,
        { userAgent: request.headers['user-agent'] ?? null, language: request.cookies[LOCALE_COOKIE] ?? null },
        proofOf(request, request.body?.current_password),
      );
      if (request.sessionToken)
        reply.setCookie(ADMIN_SESSION_COOKIE, request.sessionToken, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
      setSessionCookie(request, reply, started.token, null);
      await rotateXsrfForSession(request, reply, started.token);
      return { bootstrapData: started.bootstrapData };
    },
  );

  // The impersonated session calls this, so it needs no admin permission: only a session an admin started.
  app.post(
    '/impersonation/stop',
    { onRequest: requireUser, schema: { tags, summary: 'End "sign in as" and return to the admin’s own session', response: { 200: bootstrapAnswer } } },
    async (request, reply) => {
      const { token, bootstrapData } = await impersonation.stop(
        {
          userId: callerOf(request).userId,
          sessionToken: request.sessionToken,
          impersonatorId: request.impersonatorId,
          ip: request.ip,
          language: request.cookies[LOCALE_COOKIE] ?? null,
        },
        request.cookies[ADMIN_SESSION_COOKIE] ?? null,
      );
      reply.clearCookie(ADMIN_SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
      if (token) {
        setSessionCookie(request, reply, token, null);
        await rotateXsrfForSession(request, reply, token);
      } else {
        clearSessionCookie(request, reply);
        rotateXsrfForGuest(request, reply);
      }
      return { bootstrapData };
    },
  );
};
