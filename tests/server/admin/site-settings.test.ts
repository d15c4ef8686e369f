import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { linkFromMail, mailsTo } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('admin settings that the server reads on use: the site address and the notification channels', () => {
  let t: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
  });
  afterAll(() => t.close());

  const put = (body: Record<string, unknown>) => admin.request('PUT', '/api/v1/admin/settings', { body });

  it('refuses a site address that is not a full http(s) address', async () => {
    for (const bad of ['drive.example.org', 'ftp://drive.example.org', 'javascript:alert(1)']) {
      const res = await put({ 'site.url': bad });
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().errors['site.url']).toEqual(['Enter a full address starting with http:// or https://.']);
    }
    expect((await admin.get('/api/v1/admin/settings')).json().settings['site.url']).toBe('');
  });

  it('builds mail links, share links and the app’s base URL on the site address, and on APP_URL again once it is cleared', async () => {
    expect((await put({ 'site.url': 'https://files.example.org/' })).statusCode).toBe(200);
    try {
      const { user, client } = await signedInUser(t.app);
      expect((await client.get('/api/v1/bootstrap-data')).json().data.settings.base_url).toBe('https://files.example.org');
      await new TestClient(t.app).post('/auth/forgot-password', { email: user.email });
      await servicesOf(t.app).jobs.idle();
      expect((await linkFromMail(t.dataDir, user.email, '/password/reset/')).origin).toBe('https://files.example.org');
      const file = (await uploadFile(t.app, user, { name: 'a.txt', content: 'abc' })).hash;
      const link = (await client.post(`/api/v1/file-entries/${file}/share-links`, {})).json().link;
      expect(link.url).toMatch(/^https:\/\/files\.example\.org\/drive\/s\//);
    } finally {
      await put({ 'site.url': '' });
    }
    const { client } = await signedInUser(t.app);
    expect((await client.get('/api/v1/bootstrap-data')).json().data.settings.base_url).toBe(t.config.appUrl);
  });

  it('a channel switched off is neither offered nor sent, whatever the user chose; in-app notifications still arrive', async () => {
    const { user, client } = await signedInUser(t.app);
    const notify = () =>
      servicesOf(t.app).notifications.notifier.notify(user.id, 'file-entry-shared', () => ({
        image: 'people',
        lines: [{ content: 'Shared a file' }],
        mainAction: { label: 'Open', action: '/drive/shares' },
      }));
    expect((await put({ 'notifications.channels.email': false })).statusCode).toBe(200);
    try {
      expect((await client.get('/api/v1/notifications/me/subscriptions')).json().available_channels).toEqual(['browser']);
      await notify();
      await servicesOf(t.app).jobs.idle();
      expect(await mailsTo(t.dataDir, user.email)).toEqual([]);
      expect((await client.get('/api/v1/notifications')).json().pagination.total).toBe(1);
    } finally {
      await put({ 'notifications.channels.email': true });
    }
    expect((await client.get('/api/v1/notifications/me/subscriptions')).json().available_channels).toEqual(['email', 'browser']);
    await notify();
    await servicesOf(t.app).jobs.idle();
    expect(await mailsTo(t.dataDir, user.email)).toHaveLength(1);
    const log = await servicesOf(t.app)
      .db.kysely.selectFrom('admin_activity')
      .select('details')
      .where('action', '=', 'settings.updated')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(log.details)).toMatchObject({ keys: ['notifications.channels.email'] });
  });
});
