import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { Conflict } from '../../lib/errors.js';
import { ADMIN_PERMISSION } from '../permissions/policy.js';
import { adminIds, permissionNames, userById } from '../users/accounts.repository.js';

export const OWN_ADMIN_ACCESS = 'You cannot remove your own admin access.';
export const LAST_ADMIN = 'There must be at least one admin: this would leave none.';

/** Whether these permission names open the admin area. */
export const opensAdmin = (names: Set<string>) => names.has(ADMIN_PERMISSION) || names.has('admin.access');

/**
 * Taken before a change, run after it inside its transaction: a caller who
 * could open the admin area still can, and at least one admin remains, else
 * the change is refused (409) and rolled back.
 */
export async function adminGuard(db: Kysely<Database>, callerId: number): Promise<(trx: Kysely<Database>) => Promise<void>> {
  const had = opensAdmin(await permissionNames(db, callerId));
  const anyAdmin = (await adminIds(db)).length > 0;
  return async (trx) => {
    if (had) {
      const caller = await userById(trx, callerId);
      if (!caller || caller.suspended_at || !opensAdmin(await permissionNames(trx, callerId))) throw Conflict(OWN_ADMIN_ACCESS);
    }
    if (anyAdmin && (await adminIds(trx)).length === 0) throw Conflict(LAST_ADMIN);
  };
}
