import type { FastifyInstance } from 'fastify';
import { onTestFinished } from 'vitest';
import type { SettingValue } from '../../../server/modules/settings/defaults.js';
import { servicesOf } from './services-handle.js';

/**
 * Puts the named site settings back as they were once the running test
 * finishes, passed or failed. The tests of a file share one app, so a setting
 * one test changes (directly or through an admin call) must not reach the
 * tests that run after it, in whatever order they run.
 */
export async function restoreSettingsAfterTest(app: FastifyInstance, keys: string[]): Promise<void> {
  const db = servicesOf(app).db.kysely;
  const before = keys.length ? await db.selectFrom('settings').selectAll().where('key', 'in', keys).execute() : [];
  onTestFinished(async () => {
    if (!keys.length) return;
    await db.deleteFrom('settings').where('key', 'in', keys).execute();
    if (before.length) await db.insertInto('settings').values(before).execute();
  });
}

/** Sets site settings for the running test only (see restoreSettingsAfterTest). */
export async function setSettingsForTest(app: FastifyInstance, values: Record<string, SettingValue>): Promise<void> {
  await restoreSettingsAfterTest(app, Object.keys(values));
  await servicesOf(app).settings.set(values);
}
