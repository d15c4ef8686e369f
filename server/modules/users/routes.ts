import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFound, ValidationError } from '../../lib/errors.js';
import { clearSessionCookie } from '../../plugins/cookies.js';
import { rotateXsrfForGuest } from '../../plugins/xsrf.js';
import { currentUser, requireUser } from '../../plugins/guards.js';
import { presentUser } from './presenter.js';
import type { AccountProof } from './service.js';
import { AVATAR_MAX_BYTES } from './avatars.js';
import { avatarUrlBody, changePasswordBody, deleteUserBody, deleteUserQuery, updateProfileBody, userIdParams, userResponse } from './schemas.js';

const messageResponse = z.object({ message: z.string() });
const avatarResponse = z.object({ user: userResponse.shape.user, avatar: z.string() });

/** What the request proves about its caller, for changes to the account itself. */
function proofOf(request: FastifyRequest, currentPassword: string | undefined): AccountProof {
  return {
    currentPassword,
    via: request.authVia,
    tokenScopes: request.tokenScopes,
    signedInAt: request.signedInAt,
    sessionToken: request.sessionToken,
    ip: request.ip,
  };
}

export const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  const { account, users } = app.services;

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
      const bytes = await app.services.avatars.open(request.params.name);
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
        const { current_password: currentPassword, ...profile } = request.body;
        await account.updateProfile(actor, target, profile, proofOf(request, currentPassword));
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
          proof: proofOf(request, request.body?.current_password),
        });
        if (target.id === actor.id) {
          clearSessionCookie(request, reply);
          rotateXsrfForGuest(request, reply);
        }
        return { message: 'Account deleted' };
      },
    );

    authed.post(
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
        let avatar: string;
        if (request.isMultipart()) {
          let fileBytes: Buffer | null = null;
          let url: string | null = null;
          try {
            for await (const part of request.parts({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } })) {
              if (part.type === 'file') {
                fileBytes = await part.toBuffer();
              } else if (part.fieldname === 'url' && typeof part.value === 'string') {
                url = part.value;
              }
            }
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
              throw ValidationError.field('avatar', 'The image may not be greater than 2 MB.');
            }
            throw error;
          }
          if (fileBytes) avatar = await account.setAvatarFromFile(target, fileBytes);
          else if (url) avatar = await account.setAvatarFromUrl(target, url);
          else throw ValidationError.field('avatar', 'Please select an image.');
        } else {
          const body = avatarUrlBody.safeParse(request.body);
          if (!body.success) throw ValidationError.field('url', 'Please select an image.');
          avatar = await account.setAvatarFromUrl(target, body.data.url);
        }
        return { user: await present(target.id, []), avatar };
      },
    );

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
