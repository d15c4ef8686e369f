import type { Permission } from '../permissions/policy.js';
import { restriction } from '../permissions/policy.js';
import type { Actor } from '../access/actor.js';
import { signedInUserId } from '../access/actor.js';

export interface SpaceLimitDeps {
  /** The `uploads.available_space` setting (bytes, or null: unlimited). */
  siteDefault(): Promise<number | null>;
  /** A user's merged site permissions, for a payer other than the caller. */
  permissionsOf(userId: number): Promise<Permission[]>;
  /** The bytes the user's plan gives (null: unlimited), or undefined when no plan applies. */
  planSpace?(userId: number): Promise<number | null | undefined>;
}

/**
 * How many bytes a user may store: their `files.create` max_space
 * restriction (an admin's override), else their plan's space (billing: the
 * subscribed plan, or the free plan), else the site default; null means
 * unlimited. The quota check and `user/space-usage` both ask here.
 */
export class SpaceLimits {
  constructor(private readonly deps: SpaceLimitDeps) {}

  async availableTo(actor: Actor, payerId: number): Promise<number | null> {
    const permissions = signedInUserId(actor) === payerId ? actor.permissions : await this.deps.permissionsOf(payerId);
    const own = restriction({ permissions }, 'files.create', 'max_space');
    const fromUser = own === null || own === undefined || own === '' ? null : Number(own);
    if (fromUser !== null && Number.isFinite(fromUser)) return fromUser;
    const plan = await this.deps.planSpace?.(payerId);
    if (plan !== undefined) return plan;
    return this.deps.siteDefault();
  }
}
