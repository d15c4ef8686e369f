import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isSecure } from '../../plugins/cookies.js';
import { HUMAN_CHECK_TTL_MS, HUMAN_COOKIE, humanCheckCookie } from './human-check.js';

export const recaptchaRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/recaptcha/verify',
    {
      schema: {
        tags: ['auth'],
        summary: 'Check a human-verification token; on success the browser may submit protected forms for 10 minutes',
        body: z.object({ token: z.string().min(1).max(4096) }),
        response: { 200: z.object({ success: z.boolean() }) },
      },
    },
    async (request, reply) => {
      const success = await app.services.recaptcha.verify(request.body.token, request.ip);
      if (success) {
        reply.setCookie(HUMAN_COOKIE, await humanCheckCookie(app.services), {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: isSecure(request),
          maxAge: HUMAN_CHECK_TTL_MS / 1000,
        });
      }
      return { success };
    },
  );
};
