import { describe, expect, it } from 'vitest';
import { retentionFrom, spaceLimitsFrom, type PlanRules } from '../../../server/modules/drive/site-rules.js';
import type { SettingValue } from '../../../server/modules/settings/defaults.js';

const settingsOf = (values: Record<string, SettingValue>) => ({ get: async (key: string) => values[key] ?? null });
const noPlan: PlanRules = { planSpace: async () => undefined, planTrashDays: async () => undefined };

describe('the drive’s site rules (issue 31.2: moved out of services.ts)', () => {
  it('takes the site’s default space only when it is a number; otherwise unlimited', async () => {
    expect(await spaceLimitsFrom(settingsOf({ 'uploads.available_space': 1000 }), noPlan, async () => []).siteDefault()).toBe(1000);
    expect(await spaceLimitsFrom(settingsOf({ 'uploads.available_space': '1000' }), noPlan, async () => []).siteDefault()).toBeNull();
    expect(await spaceLimitsFrom(settingsOf({}), noPlan, async () => []).siteDefault()).toBeNull();
  });

  it('asks the plan for a payer’s space and the permissions for a payer other than the caller', async () => {
    const asked: number[] = [];
    const limits = spaceLimitsFrom(settingsOf({}), { ...noPlan, planSpace: async (id) => (id === 3 ? 500 : undefined) }, async (id) => {
      asked.push(id);
      return [];
    });
    expect(await limits.planSpace!(3)).toBe(500);
    expect(await limits.planSpace!(4)).toBeUndefined();
    await limits.permissionsOf(9);
    expect(asked).toEqual([9]);
  });

  it('keeps the trash for the plan’s days, else the site’s positive days, else 30', async () => {
    const plan = { planTrashDays: async (owner: number) => (owner === 1 ? 90 : undefined) };
    expect(await retentionFrom(settingsOf({ 'trash.keep_days': 7 }), plan).trashDays(1)).toBe(90);
    expect(await retentionFrom(settingsOf({ 'trash.keep_days': 7 }), plan).trashDays(2)).toBe(7);
    expect(await retentionFrom(settingsOf({ 'trash.keep_days': 0 }), plan).trashDays(2)).toBe(30);
    expect(await retentionFrom(settingsOf({ 'trash.keep_days': 'x' }), plan).trashDays(2)).toBe(30);
  });

  it('keeps versions for the site’s days (0 allowed), else 365', async () => {
    expect(await retentionFrom(settingsOf({ 'versions.max_days': 0 }), noPlan).versionMaxDays()).toBe(0);
    expect(await retentionFrom(settingsOf({ 'versions.max_days': 10 }), noPlan).versionMaxDays()).toBe(10);
    expect(await retentionFrom(settingsOf({ 'versions.max_days': -1 }), noPlan).versionMaxDays()).toBe(365);
    expect(await retentionFrom(settingsOf({}), noPlan).versionMaxDays()).toBe(365);
  });
});
