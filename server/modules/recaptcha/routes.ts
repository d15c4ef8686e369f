import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isSecure } from '../../plugins/cookies.js';
import { HUMAN_CHECK_TTL_MS, HUMAN_COOKIE, humanCheckCookie, type HumanCheckDeps } from './human-check.js';
import type { RecaptchaService } from './service.js';

export const recaptchaRoutes: FastifyPluginAsyncZod<HumanCheckDeps & { recaptcha: RecaptchaService }> = async (app, deps) => {
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
      const success = await deps.recaptcha.verify(request.body.token, request.ip);
      if (success) {
        reply.setCookie(HUMAN_COOKIE, await humanCheckCookie(deps), {
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
