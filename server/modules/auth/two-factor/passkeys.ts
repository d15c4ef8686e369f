import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../../db/types.js';
import { NotFound, ValidationError } from '../../../lib/errors.js';
import { addMs, nowIso } from '../../../lib/time.js';
import { randomToken, sha256 } from '../../../lib/tokens.js';
import {
  deletePasskey,
  deletePasskeysOf,
  hasPasskey,
  insertPasskey,
  insertWebauthnChallenge,
  passkeyById,
  passkeyCredentialsOf,
  passkeysOf,
  recordPasskeyUse,
  renamePasskey,
  takeWebauthnChallenge,
} from './repository.js';

const CEREMONY_LIFETIME_MS = 5 * 60 * 1000;
export const PASSKEY_NOT_VERIFIED = 'This passkey could not be verified. Please try again.';
export const PASSKEY_NOT_FOUND = 'This passkey does not exist.';

type Purpose = 'register' | 'sign-in' | 'second-step';

export interface PasskeySummary {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** Where the site is: its host is the relying party, its origin what the browser reports. */
export type RelyingParty = () => Promise<{ id: string; origin: string; name: string }>;

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const unb64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64url'));

/**
 * WebAuthn credentials: registering several (named), and checking an assertion
 * for a sign-in. User verification (PIN, fingerprint) is required throughout,
 * so a passkey alone is two factors: something held and something known or been.
 */
export class PasskeysService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly rp: RelyingParty,
  ) {}

  list(userId: number): Promise<PasskeySummary[]> {
    return passkeysOf(this.db, userId);
  }

  has(userId: number): Promise<boolean> {
    return hasPasskey(this.db, userId);
  }

  async registrationOptions(user: UserRow): Promise<{ token: string; options: PublicKeyCredentialCreationOptionsJSON }> {
    const rp = await this.rp();
    const existing = await passkeyCredentialsOf(this.db, user.id);
    const options = await generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.email,
      userID: new TextEncoder().encode(String(user.id)),
      attestationType: 'none',
      // One passkey per authenticator: registering the same one twice would only confuse the list.
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) as AuthenticatorTransport[] })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    return { token: await this.keep(user.id, 'register', options.challenge), options };
  }

  async register(user: UserRow, token: string, name: string, response: RegistrationResponseJSON): Promise<PasskeySummary> {
    const challenge = await this.take(token, 'register', user.id);
    const rp = await this.rp();
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    }).catch(() => null);
    if (!verification?.verified) throw ValidationError.field('passkey', PASSKEY_NOT_VERIFIED);
    const { credential } = verification.registrationInfo;
    const now = nowIso();
    await insertPasskey(this.db, {
      id: credential.id,
      user_id: user.id,
      name,
      public_key: b64(credential.publicKey),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: now,
    });
    return { id: credential.id, name, created_at: now, last_used_at: null };
  }

  async rename(userId: number, id: string, name: string): Promise<void> {
    if (!(await renamePasskey(this.db, userId, id, name))) throw NotFound(PASSKEY_NOT_FOUND);
  }

  async remove(userId: number, id: string): Promise<void> {
    if (!(await deletePasskey(this.db, userId, id))) throw NotFound(PASSKEY_NOT_FOUND);
  }

  async removeAll(userId: number): Promise<void> {
    await deletePasskeysOf(this.db, userId);
  }

  /** Options for an assertion: any discoverable passkey (password-less), or one of this user's (second step). */
  async authenticationOptions(userId: number | null): Promise<{ token: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const rp = await this.rp();
    const mine = userId === null ? [] : await passkeyCredentialsOf(this.db, userId);
    const options = await generateAuthenticationOptions({
      rpID: rp.id,
      userVerification: 'required',
      allowCredentials: mine.map((p) => ({ id: p.id, transports: JSON.parse(p.transports) as AuthenticatorTransport[] })),
    });
    return { token: await this.keep(userId, userId === null ? 'sign-in' : 'second-step', options.challenge), options };
  }

  /**
   * Checks an assertion against the ceremony the token started: its challenge,
   * the site's origin, user verification, a counter that moves forward; answers
   * whose passkey it was. `userId`: the second step's user, whose passkey it must be.
   */
  async verifyAssertion(token: string, response: AuthenticationResponseJSON, userId: number | null): Promise<number> {
    const challenge = await this.take(token, userId === null ? 'sign-in' : 'second-step', userId);
    const refuse = () => ValidationError.field('passkey', PASSKEY_NOT_VERIFIED);
    const stored = await passkeyById(this.db, response.id);
    if (!stored || (userId !== null && stored.user_id !== userId)) throw refuse();
    const rp = await this.rp();
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: stored.id,
        publicKey: unb64(stored.public_key),
        counter: Number(stored.counter),
        transports: JSON.parse(stored.transports) as AuthenticatorTransport[],
      },
    }).catch(() => null);
    if (!verification?.verified || !verification.authenticationInfo.userVerified) throw refuse();
    await recordPasskeyUse(this.db, stored.id, verification.authenticationInfo.newCounter, nowIso());
    return stored.user_id;
  }

  private async keep(userId: number | null, purpose: Purpose, challenge: string): Promise<string> {
    const token = randomToken();
    const now = nowIso();
    await insertWebauthnChallenge(this.db, { id: sha256(token), user_id: userId, purpose, challenge, expires_at: addMs(now, CEREMONY_LIFETIME_MS) }, now);
    return token;
  }

  /** A ceremony's challenge, spent: one assertion per challenge. */
  private async take(token: string, purpose: Purpose, userId: number | null): Promise<string> {
    const row = await takeWebauthnChallenge(this.db, sha256(token));
    if (!row || row.purpose !== purpose || row.user_id !== userId || row.expires_at <= nowIso()) {
      throw ValidationError.field('passkey', PASSKEY_NOT_VERIFIED);
    }
    return row.challenge;
  }
}
