import type { UserRow } from '../../db/types.js';
import { Conflict, NotFound, Unauthenticated, ValidationError } from '../../lib/errors.js';
import { randomToken } from '../../lib/tokens.js';
import type { UsersRepository } from '../users/repository.js';
import type { PasswordChecks } from './password-checks.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { SessionsService, StartedSession } from './sessions.js';
import { currentPasswordLimits, loginLimits } from './throttles.js';
import { SIGN_IN_EXPIRED, type SecondFactorAnswer, type SecondStepMethod, type TwoFactorService } from './two-factor/service.js';

const BAD_CREDENTIALS = 'These credentials do not match our records.';
export const ACCOUNT_SUSPENDED = 'This account is suspended.';

/**
 * Whose password is given, and why: the reason decides the throttle and which
 * form field hears a refusal.
 */
export type PasswordClaim =
  /** The sign-in form: an address and its password. */
  | { purpose: 'sign-in'; email: string }
  /** Social sign-in's "link with your password" prompt: the account the provider's address belongs to. */
  | { purpose: 'link'; email: string }
  /** A signed-in user confirming a change to their own account. */
  | { purpose: 'confirm'; user: UserRow };

const REFUSAL_FIELD = { 'sign-in': 'email', link: 'password', confirm: 'current_password' } as const;
const INCORRECT = { 'sign-in': BAD_CREDENTIALS, link: 'The password is incorrect.', confirm: 'The current password is incorrect.' } as const;

/** Why a session may start. Each kind is made by the one place that checked it. */
export type SessionProof =
  /** The sign-in form's address and password, checked here. */
  | { kind: 'password'; email: string; password: string }
  /** A provider vouched for the user (SocialAccountsService: a linked profile, a new account, a link confirmed by password). */
  | { kind: 'social'; userId: number }
  /** The account registration has just created. */
  | { kind: 'registration'; userId: number }
  /** A passkey with user verification (PasskeysService.verifyAssertion): two factors in one, so no second step. */
  | { kind: 'passkey'; userId: number }
  /** An admin's "sign in as", after the admin area's own rules allowed it. */
  | { kind: 'impersonation'; userId: number; impersonatorId: number };

export interface SessionMeta {
  /** The client's address (null: not over HTTP, e.g. an admin caller without one). */
  ip: string | null;
  userAgent: string | null;
  /** Ignored for impersonation: "sign in as" is never remembered. */
  remember?: boolean;
  /** The browser's session so far, ended so no session id is carried across a sign-in; impersonation keeps it (the admin's own). */
  current?: string | null;
  /** The browser's "remember this device" token, if it has one: a trusted device is not asked for the second step. */
  device?: string | null;
}

type ImpersonationProof = Extract<SessionProof, { kind: 'impersonation' }>;

/** Where a sign-in got to: a session, or a challenge waiting for the second step (no session yet). */
export type SignInOutcome =
  | { kind: 'session'; user: UserRow; session: StartedSession }
  | { kind: 'second-factor'; user: UserRow; challenge: { token: string; expiresAt: string }; methods: SecondStepMethod[] };

/** What the sign-in rules need of second factors. */
export type SecondFactors = Pick<
  TwoFactorService,
  'methods' | 'trustsDevice' | 'createChallenge' | 'openChallenge' | 'takeChallenge' | 'verify' | 'rememberDevice'
>;

/** Timing equaliser: checking a password for an unknown email, or an account without one, costs the same as for a real one. */
let dummyHash: Promise<string> | undefined;
const getDummyHash = () => (dummyHash ??= hashPassword(randomToken()));

/** The sign-in rules, once: how a password is verified and how every session starts. */
export class AuthService {
  constructor(
    private readonly users: Pick<UsersRepository, 'findByEmail' | 'findById'>,
    private readonly passwords: PasswordChecks,
    private readonly sessions: Pick<SessionsService, 'start' | 'end'>,
    private readonly secondFactors: SecondFactors,
  ) {}

  /**
   * The one check of an account's password (sign-in, the social link prompt,
   * account changes): counted before it is compared, so parallel guesses cannot
   * outrun the throttle (PasswordChecks); compared against a dummy hash when
   * there is no account or no password; and a suspended account is told so only
   * after its right password, so a guesser learns nothing.
   */
  verifyPassword(claim: PasswordClaim, password: string, ip: string): Promise<UserRow> {
    const field = REFUSAL_FIELD[claim.purpose];
    const limits = claim.purpose === 'confirm' ? currentPasswordLimits(claim.user.id, ip) : loginLimits(claim.email, ip);
    return this.passwords.check(limits, async () => {
      const user = claim.purpose === 'confirm' ? claim.user : await this.users.findByEmail(claim.email);
      const ok = await verifyPassword(user?.password ?? (await getDummyHash()), password);
      if (!user || !ok) throw ValidationError.field(field, INCORRECT[claim.purpose]);
      if (user.suspended_at) throw ValidationError.field(field, ACCOUNT_SUSPENDED);
      return user;
    });
  }

  /**
   * Every session starts here, whatever proved who the user is: a suspended
   * account gets none (authenticate.ts would refuse it on the next request,
   * a half sign-in), and a sign-in ends the browser's previous session.
   * An account with a second factor gets no session from its first proof,
   * whichever it was, only a challenge for the second step (completeSecondStep),
   * unless this browser was trusted after a second step. "Sign in as" is the
   * one exception: the admin's own session passed both steps, and the user's
   * factors are theirs alone.
   */
  async startSession(proof: ImpersonationProof, meta: SessionMeta): Promise<{ kind: 'session'; user: UserRow; session: StartedSession }>;
  async startSession(proof: SessionProof, meta: SessionMeta): Promise<SignInOutcome>;
  async startSession(proof: SessionProof, meta: SessionMeta): Promise<SignInOutcome> {
    const user =
      proof.kind === 'password'
        ? // Callers without an address share one throttle bucket rather than escaping it.
          await this.verifyPassword({ purpose: 'sign-in', email: proof.email }, proof.password, meta.ip ?? '')
        : await this.users.findById(proof.userId);
    if (!user) throw NotFound('This user does not exist.');
    if (user.suspended_at) throw Conflict(ACCOUNT_SUSPENDED);
    const impersonatorId = proof.kind === 'impersonation' ? proof.impersonatorId : null;
    if (meta.current && !impersonatorId) await this.sessions.end(meta.current);
    const methods = impersonatorId || proof.kind === 'passkey' ? [] : await this.secondFactors.methods(user.id);
    if (methods.length > 0 && !(await this.secondFactors.trustsDevice(user.id, meta.device))) {
      return { kind: 'second-factor', user, methods, challenge: await this.secondFactors.createChallenge(user.id, meta.remember ?? false) };
    }
    const session = await this.sessions.start(user.id, {
      ip: meta.ip,
      userAgent: meta.userAgent,
      remember: impersonatorId ? false : (meta.remember ?? false),
      impersonatorId,
    });
    return { kind: 'session', user, session };
  }

  /**
   * The second step of a sign-in: the challenge must still be open, the answer
   * right (SecondFactors.verify throttles and refuses replays), and the
   * challenge is spent by exactly one request, which alone gets the session.
   */
  async completeSecondStep(
    challengeToken: string,
    answer: SecondFactorAnswer,
    meta: { ip: string | null; userAgent: string | null; rememberDevice: boolean },
  ): Promise<{ user: UserRow; session: StartedSession; device: { token: string; expiresAt: string } | null }> {
    const challenge = await this.secondFactors.openChallenge(challengeToken);
    if (!challenge) throw Unauthenticated(SIGN_IN_EXPIRED);
    const user = await this.users.findById(challenge.userId);
    if (!user) throw Unauthenticated(SIGN_IN_EXPIRED);
    if (user.suspended_at) throw Conflict(ACCOUNT_SUSPENDED);
    await this.secondFactors.verify(user.id, answer, meta.ip ?? '');
    if (!(await this.secondFactors.takeChallenge(challengeToken))) throw Unauthenticated(SIGN_IN_EXPIRED);
    const session = await this.sessions.start(user.id, { ip: meta.ip, userAgent: meta.userAgent, remember: challenge.remember, impersonatorId: null });
    const device = meta.rememberDevice ? await this.secondFactors.rememberDevice(user.id) : null;
    return { user, session, device };
  }
}
