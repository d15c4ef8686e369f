import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { basic, dav, davToken, versionsOf } from './support.js';
import { servicesOf } from '../support/services-handle.js';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Trash retention (issue 34): each trashed entry's purge time is fixed when
 * it is trashed (the site's `trash.keep_days`, default 30), the scheduler's
 * retention pass deletes it forever on time — never a moment early — with its
 * versions and bytes, and the space comes back. Versions are thinned by the
 * same pass.
 */
describe('trash retention and the retention pass', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  const onDisk = async (prefix: string) => {
    for await (const object of servicesOf(t.app).drive.disk.list(prefix)) if (object) return true;
    return false;
  };

  it('purges a trashed file with its versions and bytes at its time, not a second before, and gives the space back', async () => {
    const trashedAt = Date.parse('2026-03-01T10:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: trashedAt - 60_000 });
    const { user, client } = await signedInUser(t.app);
    const auth = basic(await davToken(t.app, user.id));
    for (const body of ['one', 'two!', 'three']) await dav(t.app, 'PUT', '/dav/My%20drive/old.txt', auth, body);
    const hash = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].id as string;
    expect(await versionsOf(client, hash)).toHaveLength(2);
    const db = servicesOf(t.app).db.kysely;
    const prefixes = [
      (await db.selectFrom('file_entries').select('disk_prefix').where('hash', '=', hash).executeTakeFirstOrThrow()).disk_prefix!,
      ...(await db.selectFrom('file_versions').select('disk_prefix').where('owner_id', '=', user.id).execute()).map((r) => r.disk_prefix),
    ];
    vi.setSystemTime(trashedAt);
    await client.post('/api/v1/file-entries/delete', { entryIds: [hash] });
    const trash = (await client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data as { id: string; purge_at: string }[];
    const purgeAt = Date.parse(trash[0]!.purge_at);
    expect(purgeAt).toBe(trashedAt + 30 * DAY);
    const usage = async () => (await client.get('/api/v1/user/space-usage')).json().used as number;
    // Trash counts towards the space until it is purged.
    expect(await usage()).toBe(5 + 4 + 3);

    vi.setSystemTime(purgeAt - 1000);
    // A month later the session has run out: sign in again.
    await client.login(user.email, user.password);
    await servicesOf(t.app).drive.retention.run();
    expect((await client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data).toHaveLength(1);
    // Still there; the same pass thinned its two versions of one minute, now a month old, to the day's last.
    expect(await usage()).toBe(5 + 4);

    vi.setSystemTime(purgeAt);
    await servicesOf(t.app).drive.retention.run();
    expect((await client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data).toHaveLength(0);
    expect(await usage()).toBe(0);
    expect(await db.selectFrom('file_versions').selectAll().where('owner_id', '=', user.id).execute()).toEqual([]);
    for (const prefix of prefixes) expect(await onDisk(prefix), prefix).toBe(false);
  });

  it('takes the site setting at the moment of trashing; a restore clears the purge time', async () => {
    const { user, client } = await signedInUser(t.app);
    await servicesOf(t.app).settings.set({ 'trash.keep_days': 2 });
    try {
      const auth = basic(await davToken(t.app, user.id));
      await dav(t.app, 'PUT', '/dav/My%20drive/soon.txt', auth, 'x');
      const hash = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].id as string;
      await client.post('/api/v1/file-entries/delete', { entryIds: [hash] });
      const entry = (await client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data[0] as { deleted_at: string; purge_at: string };
      expect(Date.parse(entry.purge_at) - Date.parse(entry.deleted_at)).toBe(2 * DAY);
      await servicesOf(t.app).settings.set({ 'trash.keep_days': 90 });
      // Fixed at deletion: the new setting does not move it.
      const again = (await client.get('/api/v1/drive/file-entries?deletedOnly=true')).json().pagination.data[0] as { purge_at: string };
      expect(again.purge_at).toBe(entry.purge_at);
      const restored = (await client.post('/api/v1/file-entries/restore', { entryIds: [hash] })).json().fileEntries ?? [];
      expect(restored).toBeDefined();
      expect((await client.get(`/api/v1/file-entries/${hash}`)).json().fileEntry.purge_at).toBeNull();
    } finally {
      await servicesOf(t.app).settings.set({ 'trash.keep_days': 30 });
    }
  });

  it('thins versions to the steps and the longest age', async () => {
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const { user, client } = await signedInUser(t.app);
    const auth = basic(await davToken(t.app, user.id));
    // A save every 6 hours for 3 days: 12 versions.
    for (let i = 0; i <= 12; i += 1) {
      vi.setSystemTime(start + i * 6 * 60 * 60 * 1000);
      await dav(t.app, 'PUT', '/dav/My%20drive/log.txt', auth, `save ${i}`);
    }
    const hash = (await client.get('/api/v1/drive/file-entries')).json().pagination.data[0].id as string;
    expect(await versionsOf(client, hash)).toHaveLength(12);
    vi.setSystemTime(start + 3 * DAY + 60_000);
    await client.login(user.email, user.password);
    await servicesOf(t.app).drive.retention.thinVersions(Date.now());
    // Under a day old: one per hour (all four of the last day); older: the last of each day.
    const kept = (await versionsOf(client, hash)).map((v) => v.created_at);
    expect(kept.map((at) => (Date.parse(at) - start) / (6 * 60 * 60 * 1000))).toEqual([11, 10, 9, 8, 7, 3]);
    vi.setSystemTime(start + 400 * DAY);
    await client.login(user.email, user.password);
    await servicesOf(t.app).drive.retention.run();
    expect(await versionsOf(client, hash)).toEqual([]);
  });
});
