import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../../db/types.js';

/** The SQL of second factors; the rules are service.ts's. */
type Executor = Kysely<Database>;

export const totpOf = (db: Executor, userId: number) =>
  db.selectFrom('user_totp').select(['secret', 'confirmed_at', 'last_step']).where('user_id', '=', userId).executeTakeFirst();

/** A new setup replaces one that was never confirmed; a confirmed one is never overwritten here. */
export async function saveUnconfirmedTotp(db: Executor, userId: number, secret: string, now: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('user_totp').select('confirmed_at').where('user_id', '=', userId).executeTakeFirst();
    if (existing?.confirmed_at) return false;
    if (existing) await trx.updateTable('user_totp').set({ secret, last_step: null, created_at: now }).where('user_id', '=', userId).execute();
    else await trx.insertInto('user_totp').values({ user_id: userId, secret, created_at: now }).execute();
    return true;
  });
}

/**
 * Takes a code's step as the last one used, only if it is later than the last:
 * one statement, so two requests racing with the same code cannot both win.
 */
export async function claimStep(db: Executor, userId: number, step: number, confirmAt?: string): Promise<boolean> {
  const result = await db
    .updateTable('user_totp')
    .set({ last_step: step, ...(confirmAt ? { confirmed_at: confirmAt } : {}) })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .where('confirmed_at', confirmAt ? 'is' : 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteTotp(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
}

export async function replaceRecoveryCodes(db: Executor, userId: number, hashes: string[], now: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await trx
      .insertInto('two_factor_recovery_codes')
      .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: now })))
      .execute();
  });
}

/** Marks an unused code used: one statement, so a code can be spent once even by racing requests. */
export async function spendRecoveryCode(db: Executor, userId: number, hash: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function unusedRecoveryCodes(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

export async function deleteRecoveryCodes(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
}

export async function insertChallenge(db: Executor, values: { id: string; user_id: number; remember: number; created_at: string; expires_at: string }) {
  await db.insertInto('sign_in_challenges').values(values).execute();
}

export const challengeById = (db: Executor, id: string) =>
  db.selectFrom('sign_in_challenges').select(['user_id', 'remember', 'expires_at']).where('id', '=', id).executeTakeFirst();

/** Deletes a challenge; true for the one request that deleted it (a challenge starts one session). */
export async function takeChallenge(db: Executor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sign_in_challenges').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deleteExpiredChallenges(db: Executor, now: string): Promise<void> {
  await db.deleteFrom('sign_in_challenges').where('expires_at', '<=', now).execute();
}

export async function insertDevice(db: Executor, values: { id: string; user_id: number; created_at: string; expires_at: string }) {
  await db.insertInto('two_factor_devices').values(values).execute();
}

export async function deviceIsTrusted(db: Executor, id: string, userId: number, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('two_factor_devices')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return !!row;
}

export async function deleteDevicesOf(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('two_factor_devices').where('user_id', '=', userId).execute();
}

/** Of these users, those with a second factor: a confirmed authenticator app or a passkey (the admin's users list). */
export async function usersWithSecondFactor(db: Executor, userIds: number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const apps = await db.selectFrom('user_totp').select('user_id').where('user_id', 'in', userIds).where('confirmed_at', 'is not', null).execute();
  const keys = await db.selectFrom('passkeys').select('user_id').distinct().where('user_id', 'in', userIds).execute();
  return new Set([...apps, ...keys].map((row) => row.user_id));
}

// Passkeys (passkeys.ts holds the WebAuthn rules).

export const passkeysOf = (db: Executor, userId: number) =>
  db.selectFrom('passkeys').select(['id', 'name', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('created_at').execute();

export async function hasPasskey(db: Executor, userId: number): Promise<boolean> {
  return !!(await db.selectFrom('passkeys').select('id').where('user_id', '=', userId).executeTakeFirst());
}

export const passkeyCredentialsOf = (db: Executor, userId: number) =>
  db.selectFrom('passkeys').select(['id', 'transports']).where('user_id', '=', userId).execute();

export async function insertPasskey(db: Executor, values: Insertable<Database['passkeys']>): Promise<void> {
  await db.insertInto('passkeys').values(values).execute();
}

/** True when the user's passkey was there to rename. */
export async function renamePasskey(db: Executor, userId: number, id: string, name: string): Promise<boolean> {
  const result = await db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** True when the user's passkey was there to delete. */
export async function deletePasskey(db: Executor, userId: number, id: string): Promise<boolean> {
  const result = await db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function deletePasskeysOf(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('passkeys').where('user_id', '=', userId).execute();
}

export const passkeyById = (db: Executor, id: string) =>
  db.selectFrom('passkeys').select(['id', 'user_id', 'public_key', 'counter', 'transports']).where('id', '=', id).executeTakeFirst();

export async function recordPasskeyUse(db: Executor, id: string, counter: number, now: string): Promise<void> {
  await db.updateTable('passkeys').set({ counter, last_used_at: now }).where('id', '=', id).execute();
}

/** A ceremony's challenge, kept for its lifetime (expired ones are cleared first). */
export async function insertWebauthnChallenge(db: Executor, values: Insertable<Database['webauthn_challenges']>, now: string): Promise<void> {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
  await db.insertInto('webauthn_challenges').values(values).execute();
}

/** Reads and deletes a ceremony's challenge: the row only for the one request that deleted it (one assertion per challenge). */
export async function takeWebauthnChallenge(db: Executor, id: string) {
  const row = await db.selectFrom('webauthn_challenges').select(['challenge', 'purpose', 'user_id', 'expires_at']).where('id', '=', id).executeTakeFirst();
  const deleted = await db.deleteFrom('webauthn_challenges').where('id', '=', id).executeTakeFirst();
  return row && Number(deleted.numDeletedRows) === 1 ? row : undefined;
}
