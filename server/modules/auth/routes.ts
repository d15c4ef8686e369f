import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ValidationError } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { linesFor } from '../../plugins/request-lines.js';
import { reserveAttempt } from '../../lib/rate-limiter.js';
import { clearSessionCookie } from '../../plugins/cookies.js';
import { rotateXsrfForGuest } from '../../plugins/xsrf.js';
import { LOCALE_COOKIE } from '../localizations/locale-cookie.js';
import { assertHumanVerified, type HumanCheckDeps } from '../recaptcha/human-check.js';
import type { RateLimiter } from '../../lib/rate-limiter.js';
import type { UsersRepository } from '../users/repository.js';
import { PASSWORD_RESET_DONE, RESET_LINK_SENT, type RecoveryService } from './recovery.js';
import type { RegistrationService } from './registration.js';
import type { SessionsService } from './sessions.js';
import {
  bootstrapDataResponse,
  forgotPasswordBody,
  loginBody,
  loginResponse,
  messageResponse,
  registerBody,
  registerResponse,
  resetPasswordBody,
  verificationNotificationBody,
  verifyEmailQuery,
} from './schemas.js';
import { signIn, type SignInDeps } from './sign-in.js';
import { mailLimits } from './throttles.js';

/** `/auth/*`: register, sign in and out, verify an email address, recover a password. */
export interface AuthRoutesDeps extends SignInDeps, HumanCheckDeps {
  sessions: Pick<SessionsService, 'end'>;
  users: UsersRepository;
  registration: RegistrationService;
  recovery: RecoveryService;
  rateLimiter: RateLimiter;
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesDeps> = async (app, deps) => {
  const { sessions, users, bootstrap, registration, recovery, rateLimiter } = deps;

  app.post(
    '/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in; an account with a second factor gets two_factor and a guest bootstrap until POST /auth/two-factor',
        body: loginBody,
        response: { 200: loginResponse },
      },
    },
    async (request, reply) => {
      const { email, password, remember } = request.body;
      const { bootstrapData, twoFactor, twoFactorSetup } = await signIn(deps, request, reply, { kind: 'password', email, password }, remember);
      return { bootstrapData, ...(twoFactor ? { two_factor: twoFactor } : {}), ...(twoFactorSetup ? { two_factor_setup: true as const } : {}) };
    },
  );

  app.post(
    '/register',
    { schema: { tags: ['auth'], summary: 'Create an account', body: registerBody, response: { 200: registerResponse } } },
    async (request, reply) => {
      await assertHumanVerified(deps, request, 'register');
      const { first_name, last_name, email, password, address, city, country, zipcode, ...rest } = request.body;
      const { user, needsEmailVerification } = await registration.register({
        first_name,
        last_name,
        email,
        password,
        address,
        city,
        country,
        zipcode,
        accepted: rest,
        language: request.cookies[LOCALE_COOKIE] ?? null,
      });
      if (needsEmailVerification) await recovery.sendVerification(user.id);
      const { bootstrapData, twoFactorSetup } = await signIn(deps, request, reply, { kind: 'registration', userId: user.id }, true);
      return {
        bootstrapData,
        ...(twoFactorSetup ? { two_factor_setup: true as const } : {}),
        status: needsEmailVerification ? ('needs_email_verification' as const) : ('success' as const),
      };
    },
  );

  app.post('/logout', { schema: { tags: ['auth'], summary: 'Sign out', response: { 200: bootstrapDataResponse } } }, async (request, reply) => {
    if (request.sessionToken) await sessions.end(request.sessionToken);
    clearSessionCookie(request, reply);
    rotateXsrfForGuest(request, reply);
    return { bootstrapData: await bootstrap.build(null, request.cookies[LOCALE_COOKIE] ?? null) };
  });

  app.post(
    '/forgot-password',
    {
      schema: { tags: ['auth'], summary: 'Mail a password reset link', body: forgotPasswordBody, response: { 200: messageResponse } },
    },
    async (request) => {
      await reserveAttempt(rateLimiter, mailLimits('reset', request.body.email, request.ip));
      await recovery.sendResetLink(request.body.email);
      // The same answer whether or not the account exists: no account enumeration.
      return { message: translate(await linesFor(request), RESET_LINK_SENT) };
    },
  );

  app.post(
    '/reset-password',
    { schema: { tags: ['auth'], summary: 'Set a new password with a mailed token', body: resetPasswordBody, response: { 200: messageResponse } } },
    async (request) => {
      await recovery.resetPassword(request.body);
      return { message: translate(await linesFor(request), PASSWORD_RESET_DONE) };
    },
  );

  app.post(
    '/email/verification-notification',
    {
      schema: {
        tags: ['auth'],
        summary: 'Mail a new verification link (valid 24 hours)',
        body: verificationNotificationBody,
        response: { 200: messageResponse },
      },
    },
    async (request) => {
      const email = request.user?.email ?? request.body.email;
      if (!email) throw ValidationError.field('email', 'The email field is required.');
      await reserveAttempt(rateLimiter, mailLimits('verify', email, request.ip));
      const user = request.user ?? (await users.findByEmail(email));
      if (user) await recovery.sendVerification(user.id);
      return { message: translate(await linesFor(request), 'Email sent') };
    },
  );

  app.get(
    '/email/verify',
    { schema: { tags: ['auth'], summary: 'The link in the verification mail', querystring: verifyEmailQuery } },
    async (request, reply) => {
      const verified = await recovery.verifyEmail(request.query.token);
      return reply.redirect(verified ? '/drive?verified=1' : '/drive?verified=0', 302);
    },
  );
};
