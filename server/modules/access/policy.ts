import { can as siteCan } from '../permissions/policy.js';
import { ENTRY_ACTIONS, type ActionSet, type EntryAction } from './actions.js';
import type { Actor } from './actor.js';

/**
 * The decision, as a pure function over grants loaded beforehand (Outline's
 * rule: a policy never queries). An action is allowed when the entry's grant
 * holds it and the caller's site role allows it too: the role is a ceiling
 * that no grant lifts.
 *
 * - no grant at all: 'not-found' (the entry's existence is not revealed);
 * - a grant, but not for this action (or above the ceiling): 'forbidden'.
 */
export type Decision = 'allow' | 'forbidden' | 'not-found';

export function decide(actor: Actor, action: EntryAction, grant: ActionSet | undefined): Decision {
  if (!grant || grant.size === 0) return 'not-found';
  return grant.has(action) && siteAllows(actor, action) ? 'allow' : 'forbidden';
}

export function can(actor: Actor, action: EntryAction, grant: ActionSet | undefined): boolean {
  return decide(actor, action, grant) === 'allow';
}

/**
 * How a file's bytes leave the server, and the action each way needs (issue
 * 30 finding 3: a preview must never be a download in disguise).
 * - `inline`: shown as a preview, which only the kinds that have one get
 *   (drive/kinds.ts `inlinePreview`), never as an attachment: viewing.
 * - `file`: handed over to keep (a download, a zip, a WebDAV GET, a copy): downloading.
 * A kind without a preview has no inline way, so a caller who may view but
 * not download never receives its bytes. Thumbnails are neither (a small
 * picture made from an image) and go with view.
 */
export type Delivery = 'inline' | 'file';

export function deliveryAction(delivery: Delivery): EntryAction {
  return delivery === 'inline' ? 'files.view' : 'files.download';
}

/** The site role's ceiling: `admin` allows everything. */
export function siteAllows(actor: Actor, action: EntryAction): boolean {
  return siteCan(actor, action);
}

/**
 * A site permission that no resource qualifies (spec §6: api.access,
 * admin.access, workspaces.create…): the caller's roles, or the guest role's.
 */
export function hasPermission(actor: Actor, permission: string): boolean {
  return siteCan(actor, permission);
}

/** Whose account a caller may read and change: their own, or anyone's for admins. */
export function mayManageAccount(actor: Actor, accountId: number): boolean {
  return actor.kind === 'user' && (actor.userId === accountId || siteCan(actor, 'admin'));
}

/**
 * Issue 30 finding 11: a session an admin started as someone else ("sign in
 * as") makes no credential for them, since a personal access token would go on
 * working after the admin stops.
 */
export function mayCreateCredentials(session: { impersonatorId: number | null }): boolean {
  return session.impersonatorId === null;
}

/** What a grant lets this caller do, in catalogue order: what presenters send so clients never guess. */
export function allowedActions(actor: Actor, grant: ActionSet | undefined): EntryAction[] {
  return allowedActionsOf(actor)(grant);
}

/**
 * `allowedActions` for many grants of one caller, the role's ceiling worked
 * out once: a listing page asked it of every row, each action a scan of the
 * caller's permissions (issue 38 §3).
 */
export function allowedActionsOf(actor: Actor): (grant: ActionSet | undefined) => EntryAction[] {
  const ceiling = ENTRY_ACTIONS.filter((action) => siteAllows(actor, action));
  return (grant) => (grant ? ceiling.filter((action) => grant.has(action)) : []);
}
