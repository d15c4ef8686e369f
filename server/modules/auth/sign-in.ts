import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../../db/types.js';
import { clearSessionCookie, isSecure, setSessionCookie } from '../../plugins/cookies.js';
import { rotateXsrfForGuest, rotateXsrfForSession } from '../../plugins/xsrf.js';
import type { BootstrapService } from '../bootstrap/service.js';
import type { UsersRepository, UserWithAccess } from '../users/repository.js';
import { LOCALE_COOKIE } from '../localizations/locale-cookie.js';
import type { AuthService, SessionProof } from './service.js';
import { REMEMBER_LIFETIME_MS } from './sessions.js';
import { CHALLENGE_LIFETIME_MS, DEVICE_LIFETIME_MS, type SecondStepMethod, type TwoFactorService } from './two-factor/service.js';

/** The sign-in waiting for its second step (never a session: nothing reads it but the second step). */
export const CHALLENGE_COOKIE = 'drive_sign_in';
/** "Remember this device for 30 days". */
export const DEVICE_COOKIE = 'drive_device';

/** What signing a browser in needs, and no more. */
export interface SignInDeps {
  auth: Pick<AuthService, 'startSession'>;
  users: Pick<UsersRepository, 'withAccess'>;
  bootstrap: Pick<BootstrapService, 'build'>;
  /** Whether the account has a second factor: a role may require one before anything else is reachable (issue 36). */
  twoFactor: Pick<TwoFactorService, 'enabled'>;
}

/** "Sign in as" keeps the admin's own session aside, so its cookies are the admin area's (admin/users/routes.ts). */
export type BrowserProof = Exclude<SessionProof, { kind: 'impersonation' }>;

export interface SignedIn {
  bootstrapData: Awaited<ReturnType<BootstrapService['build']>>;
  /** Null when signed in; else the sign-in waits for a second step and bootstrapData is a guest's. */
  twoFactor: { methods: SecondStepMethod[] } | null;
  /**
   * A role of the account requires two-factor sign-in and it has no second
   * factor: the session reaches only the set-up calls (plugins/authenticate.ts),
   * and bootstrapData is a guest's until one is set up.
   */
  twoFactorSetup: boolean;
}

const cookieOptions = (request: FastifyRequest, maxAgeMs: number) => ({
  path: '/',
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: isSecure(request),
  maxAge: Math.floor(maxAgeMs / 1000),
});

/**
 * The HTTP side of AuthService.startSession: the session and XSRF cookies,
 * and the bootstrap data the app replaces its own with; or, for an account
 * with a second factor, the challenge cookie and a guest's bootstrap data.
 */
export async function signIn(deps: SignInDeps, request: FastifyRequest, reply: FastifyReply, proof: BrowserProof, remember: boolean): Promise<SignedIn> {
  const language = request.cookies[LOCALE_COOKIE] ?? null;
  const outcome = await deps.auth.startSession(proof, {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    remember,
    current: request.sessionToken ?? null,
    device: request.cookies[DEVICE_COOKIE] ?? null,
  });
  if (outcome.kind === 'second-factor') {
    // The previous session ended in startSession: its cookie goes too, and the XSRF token is a guest's again.
    clearSessionCookie(request, reply);
    rotateXsrfForGuest(request, reply);
    reply.setCookie(CHALLENGE_COOKIE, outcome.challenge.token, cookieOptions(request, CHALLENGE_LIFETIME_MS));
    return { bootstrapData: await deps.bootstrap.build(null, language), twoFactor: { methods: outcome.methods }, twoFactorSetup: false };
  }
  setSessionCookie(request, reply, outcome.session.token, outcome.session.remember ? REMEMBER_LIFETIME_MS / 1000 : null);
  await rotateXsrfForSession(request, reply, outcome.session.token);
  const user = await deps.users.withAccess(outcome.user);
  const twoFactorSetup = await twoFactorSetupPending(deps, user);
  return { bootstrapData: await deps.bootstrap.build(twoFactorSetup ? null : user, language, null, twoFactorSetup), twoFactor: null, twoFactorSetup };
}

/** A role of the user requires two-factor sign-in and the user has no second factor yet. */
export async function twoFactorSetupPending(deps: Pick<SignInDeps, 'twoFactor'>, user: UserWithAccess): Promise<boolean> {
  return user.two_factor_required && !(await deps.twoFactor.enabled(user.id));
}

/** Sets a started session's cookies and answers the signed-in bootstrap data. */
export async function startBrowserSession(
  deps: Pick<SignInDeps, 'users' | 'bootstrap'>,
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  session: { token: string; remember: boolean },
) {
  setSessionCookie(request, reply, session.token, session.remember ? REMEMBER_LIFETIME_MS / 1000 : null);
  await rotateXsrfForSession(request, reply, session.token);
  return deps.bootstrap.build(await deps.users.withAccess(user), request.cookies[LOCALE_COOKIE] ?? null);
}

export function rememberDeviceCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(DEVICE_COOKIE, token, cookieOptions(request, DEVICE_LIFETIME_MS));
}

export function clearChallengeCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(CHALLENGE_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(request) });
}
