import { Forbidden } from '../../lib/errors.js';
import { ADMIN_PERMISSION } from '../permissions/policy.js';

export const GRANT_NOT_HELD = 'You cannot grant a permission you do not hold: :name.';
export const ACCOUNT_ABOVE_YOU = 'This account holds permissions you do not have.';
export const ROLE_ABOVE_YOU = 'This role holds permissions you do not have.';

/**
 * What an admin call hands out or touches:
 * - `grant`: permissions given to an account or a role (a role's own, when it is given);
 * - `account`: everything an account holds, before it is edited, suspended, deleted or signed in as;
 * - `role`: everything a role holds, before it is edited or deleted.
 */
export type DelegationSubject = 'grant' | 'account' | 'role';

/**
 * Issue 30 finding 5: nobody grants a permission or a role they do not hold
 * themselves, nor changes an account or a role that holds more than they do,
 * so `users.update` or `roles.update` never climbs to `admin`. Permissions are
 * compared by name (`admin` holds every name); restriction values are not
 * ranked. Every admin call that grants or edits roles, permissions or accounts
 * asks this one function; 403 names the first permission out of reach.
 */
export function requireWithinOwnAccess(callerHolds: ReadonlySet<string>, wanted: Iterable<string>, subject: DelegationSubject): void {
  if (callerHolds.has(ADMIN_PERMISSION)) return;
  for (const name of wanted) {
    if (callerHolds.has(name)) continue;
    if (subject === 'grant') throw Forbidden(GRANT_NOT_HELD, { name });
    throw Forbidden(subject === 'account' ? ACCOUNT_ABOVE_YOU : ROLE_ABOVE_YOU);
  }
}
