import type { Permission } from '../permissions/policy.js';
import type { SettingsService } from '../settings/service.js';
import type { SpaceLimitDeps } from './space-limits.js';
import type { TrashRetention } from './trash.js';

/** What a payer's plan says (billing); undefined where no plan applies. */
export interface PlanRules {
  planSpace(userId: number): Promise<number | null | undefined>;
  planTrashDays(ownerId: number): Promise<number | undefined>;
}

const TRASH_DAYS = 30;
const VERSION_MAX_DAYS = 365;

/** Space: a user's restriction, else their plan's, else the site's `uploads.available_space` (a number; else unlimited). */
export function spaceLimitsFrom(
  settings: Pick<SettingsService, 'get'>,
  plans: PlanRules,
  permissionsOf: (userId: number) => Promise<Permission[]>,
): SpaceLimitDeps {
  return {
    siteDefault: async () => {
      const setting = await settings.get('uploads.available_space');
      return typeof setting === 'number' ? setting : null;
    },
    permissionsOf,
    planSpace: (userId) => plans.planSpace(userId),
  };
}

/**
 * How long the trash and old versions are kept: a plan's trash days, else the site's `trash.keep_days` (a positive
 * number; else 30); versions up to `versions.max_days` (0 or more; else 365).
 */
export function retentionFrom(
  settings: Pick<SettingsService, 'get'>,
  plans: Pick<PlanRules, 'planTrashDays'>,
): TrashRetention & { versionMaxDays(): Promise<number> } {
  return {
    trashDays: async (ownerId) => {
      const plan = await plans.planTrashDays(ownerId);
      if (plan !== undefined) return plan;
      const setting = await settings.get('trash.keep_days');
      return typeof setting === 'number' && setting > 0 ? setting : TRASH_DAYS;
    },
    versionMaxDays: async () => {
      const setting = await settings.get('versions.max_days');
      return typeof setting === 'number' && setting >= 0 ? setting : VERSION_MAX_DAYS;
    },
  };
}
