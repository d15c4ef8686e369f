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
    return this.db.selectFrom('passkeys').select(['id', 'name', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('created_at').execute();
  }

  async has(userId: number): Promise<boolean> {
    return !!(await this.db.selectFrom('passkeys').select('id').where('user_id', '=', userId).executeTakeFirst());
  }

  async registrationOptions(user: UserRow): Promise<{ token: string; options: PublicKeyCredentialCreationOptionsJSON }> {
    const rp = await this.rp();
    const existing = await this.db.selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', user.id).execute();
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
    await this.db
      .insertInto('passkeys')
      .values({
        id: credential.id,
        user_id: user.id,
        name,
        public_key: b64(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? []),
        created_at: now,
      })
      .execute();
    return { id: credential.id, name, created_at: now, last_used_at: null };
  }

  async rename(userId: number, id: string, name: string): Promise<void> {
    const result = await this.db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw NotFound(PASSKEY_NOT_FOUND);
  }

  async remove(userId: number, id: string): Promise<void> {
    const result = await this.db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw NotFound(PASSKEY_NOT_FOUND);
  }

  async removeAll(userId: number): Promise<void> {
    await this.db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
  }

  /** Options for an assertion: any discoverable passkey (password-less), or one of this user's (second step). */
  async authenticationOptions(userId: number | null): Promise<{ token: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    const rp = await this.rp();
    const mine = userId === null ? [] : await this.db.selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', userId).execute();
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
    const stored = await this.db
      .selectFrom('passkeys')
      .select(['id', 'user_id', 'public_key', 'counter', 'transports'])
      .where('id', '=', response.id)
      .executeTakeFirst();
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
    await this.db
      .updateTable('passkeys')
      .set({ counter: verification.authenticationInfo.newCounter, last_used_at: nowIso() })
      .where('id', '=', stored.id)
      .execute();
    return stored.user_id;
  }

  private async keep(userId: number | null, purpose: Purpose, challenge: string): Promise<string> {
    const token = randomToken();
    const now = nowIso();
    await this.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('webauthn_challenges')
      .values({ id: sha256(token), user_id: userId, purpose, challenge, expires_at: addMs(now, CEREMONY_LIFETIME_MS) })
      .execute();
    return token;
  }

  /** A ceremony's challenge, spent: one assertion per challenge. */
  private async take(token: string, purpose: Purpose, userId: number | null): Promise<string> {
    const id = sha256(token);
    const row = await this.db
      .selectFrom('webauthn_challenges')
      .select(['challenge', 'purpose', 'user_id', 'expires_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    const deleted = await this.db.deleteFrom('webauthn_challenges').where('id', '=', id).executeTakeFirst();
    if (!row || Number(deleted.numDeletedRows) !== 1 || row.purpose !== purpose || row.user_id !== userId || row.expires_at <= nowIso()) {
      throw ValidationError.field('passkey', PASSKEY_NOT_VERIFIED);
    }
    return row.challenge;
  }
}
