import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound } from '../../lib/errors.js';
import { clearSessionCookie } from '../../plugins/cookies.js';
import { rotateXsrfForGuest } from '../../plugins/xsrf.js';
import { currentUser, requireUser } from '../../plugins/guards.js';
import { acceptMultipart } from '../../plugins/multipart.js';
import { presentUser } from './presenter.js';
import type { AvatarStore } from './avatars.js';
import type { UsersRepository } from './repository.js';
import type { AccountService } from './service.js';
import { proofOf } from './proof.js';
import { readAvatarInput } from './avatar-input.js';
import { changePasswordBody, deleteUserBody, deleteUserQuery, updateProfileBody, userIdParams, userResponse } from './schemas.js';

const messageResponse = z.object({ message: z.string() });
const avatarResponse = z.object({ user: userResponse.shape.user, avatar: z.string() });

export interface UsersRoutesDeps {
  account: AccountService;
  users: Pick<UsersRepository, 'findById' | 'withAccess'>;
  avatars: Pick<AvatarStore, 'open'>;
}

export const usersRoutes: FastifyPluginAsyncZod<UsersRoutesDeps> = async (app, { account, users, avatars }) => {
  const present = async (userId: number, relations: string[]) => {
    const row = await users.findById(userId);
    if (!row) throw NotFound('This user does not exist.');
    return { ...presentUser(await users.withAccess(row)), ...(await account.relations(userId, relations)) };
  };

  // Public: avatars are shown to other members. Names are random, so the bytes never change.
  app.get(
    '/avatars/:name',
    { schema: { tags: ['users'], summary: 'A stored profile image', params: z.object({ name: z.string().max(64) }) } },
    async (request, reply) => {
      const bytes = await avatars.open(request.params.name);
      if (!bytes) throw NotFound();
      reply.header('Cache-Control', 'public, max-age=31536000, immutable');
      reply.header('X-Content-Type-Options', 'nosniff');
      return reply.type('image/webp').send(bytes);
    },
  );

  await app.register(async (scope) => {
    const authed = scope.withTypeProvider<ZodTypeProvider>();
    authed.addHook('onRequest', requireUser);

    authed.get(
      '/users/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'A user (yourself, or anyone for admins); with=roles,social_profiles,tokens',
          params: userIdParams,
          response: { 200: userResponse },
        },
      },
      async (request) => {
        const target = await account.target(currentUser(request), request.params.id);
        return { user: await present(target.id, request.ctx.with) };
      },
    );

    authed.put(
      '/users/:id',
      { schema: { tags: ['users'], summary: 'Update profile or preferences', params: userIdParams, body: updateProfileBody, response: { 200: userResponse } } },
      async (request) => {
        const actor = currentUser(request);
        const target = await account.target(actor, request.params.id);
        const { current_password: currentPassword, second_factor: secondFactor, ...profile } = request.body;
        await account.updateProfile(actor, target, profile, proofOf(request, currentPassword, secondFactor));
        return { user: await present(target.id, []) };
      },
    );

    authed.post(
      '/users/me/password/change',
      { schema: { tags: ['users'], summary: 'Change your password', body: changePasswordBody, response: { 200: messageResponse } } },
      async (request) => {
        await account.changePassword(currentUser(request), request.body, request.sessionToken, request.ip);
        return { message: 'Password changed' };
      },
    );

    authed.delete(
      '/users/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'Delete an account (your own: deleteCurrentUser=true and current_password)',
          params: userIdParams,
          querystring: deleteUserQuery,
          body: deleteUserBody,
          response: { 200: messageResponse },
        },
      },
      async (request, reply) => {
        const actor = currentUser(request);
        const target = await account.target(actor, request.params.id);
        await account.deleteAccount(actor, target, {
          confirmed: ['true', '1'].includes(request.query.deleteCurrentUser ?? ''),
          proof: proofOf(request, request.body?.current_password, request.body?.second_factor),
        });
        if (target.id === actor.id) {
          clearSessionCookie(request, reply);
          rotateXsrfForGuest(request, reply);
        }
        return { message: 'Account deleted' };
      },
    );

    await authed.register(async (avatarScope) => {
      await acceptMultipart(avatarScope);
      avatarScope.withTypeProvider<ZodTypeProvider>().post(
        '/users/:id/avatar',
        {
          schema: {
            tags: ['users'],
            summary: 'Set the profile image from an uploaded file (multipart "file") or an address (JSON or multipart "url")',
            params: userIdParams,
            response: { 200: avatarResponse },
          },
        },
        async (request) => {
          const target = await account.target(currentUser(request), request.params.id);
          const avatar = await account.setAvatar(target, await readAvatarInput(request));
          return { user: await present(target.id, []), avatar };
        },
      );
    });

    authed.delete(
      '/users/:id/avatar',
      { schema: { tags: ['users'], summary: 'Remove the profile image', params: userIdParams, response: { 200: userResponse } } },
      async (request) => {
        const target = await account.target(currentUser(request), request.params.id);
        await account.removeAvatar(target);
        return { user: await present(target.id, []) };
      },
    );
  });
};
