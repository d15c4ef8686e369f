import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPEARANCE_KEYS } from '../../../server/modules/appearance/schemas.js';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/factories.js';
import { restoreSettingsAfterTest } from '../support/settings.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { PNG, multipart } from './admin-calls.js';
import { servicesOf } from '../support/services-handle.js';

const API = '/api/v1/admin/appearance';
const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><script>alert(1)</script></svg>');

describe('the appearance editor’s settings and branding uploads', () => {
  let t: TestApp;
  let admin: TestClient;
  const upload = (name: string, bytes: Buffer, type: string) => {
    const { body, headers } = multipart(name, bytes, type);
    return admin.request('POST', `${API}/uploads`, { body, headers });
  };
  beforeAll(async () => {
    t = await createTestApp();
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
  }, 60_000);
  afterAll(() => t.close());

  it('reads and saves branding, theme settings and custom code; bootstrap follows', async () => {
    await restoreSettingsAfterTest(t.app, APPEARANCE_KEYS);
    expect((await admin.get(API)).json().values).toMatchObject({ 'branding.site_name': 'Drive', 'themes.user_change': true, 'custom_code.css': '' });
    const dark = (await servicesOf(t.app).appearance.themes.list()).find((th) => th.is_dark)!;
    const res = await admin.request('PUT', API, {
      body: {
        'branding.site_name': 'Acme Files',
        'themes.user_change': false,
        'themes.default_id': dark.id,
        'custom_code.css': 'body{color:red}',
        'custom_code.html': '<b>hi</b>',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const boot = (await new TestClient(t.app).get('/api/v1/bootstrap-data')).json().data;
    expect(boot.branding.site_name).toBe('Acme Files');
    expect(boot.settings.themes).toEqual({ user_change: false, default_id: dark.id });
    expect(boot.settings.custom_code).toEqual({ css: 'body{color:red}', html: '<b>hi</b>' });
    expect(boot.themes.selectedThemeId).toBe(dark.id);
    const log = (await admin.get('/api/v1/admin/activity?action=appearance.updated')).json().pagination.data[0];
    expect(log.details.keys).toContain('custom_code.css');
  });

  it('refuses an unknown theme, unknown keys and unsafe logo addresses as field errors', async () => {
    await restoreSettingsAfterTest(t.app, APPEARANCE_KEYS);
    const res = await admin.request('PUT', API, { body: { 'themes.default_id': 99999, 'branding.logo_light': 'javascript:alert(1)' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ 'branding.logo_light': ['Upload an image, or enter an address starting with https:// or /.'] });
    const theme = await admin.request('PUT', API, { body: { 'themes.default_id': 99999 } });
    expect(theme.json().errors).toEqual({ 'themes.default_id': ['This theme does not exist.'] });
    expect((await admin.request('PUT', API, { body: { 'app.key': 'x' } })).statusCode).toBe(422);
  });

  it('stores a PNG upload and serves it with its checked type and safe headers', async () => {
    const res = await upload('logo.txt', PNG, 'text/plain');
    expect(res.statusCode, res.body).toBe(200);
    const { url, mime } = res.json();
    expect(mime).toBe('image/png');
    const served = await new TestClient(t.app).get(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('serves an SVG sandboxed, so its script cannot run when opened directly', async () => {
    const { url, mime } = (await upload('logo.svg', SVG, 'image/svg+xml')).json();
    expect(mime).toBe('image/svg+xml');
    const served = await new TestClient(t.app).get(url);
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
  });

  it('refuses files that are not images, and images over 1 MB', async () => {
    const html = await upload('logo.png', Buffer.from('<html><script>alert(1)</script></html>'), 'image/png');
    expect(html.statusCode).toBe(422);
    expect(html.json().errors).toEqual({ file: ['Upload a PNG, JPEG, GIF, WebP, ICO or SVG image.'] });
    const big = await upload('big.png', Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]), 'image/png');
    expect(big.statusCode).toBe(422);
    expect(big.json().errors).toEqual({ file: ['The image may not be greater than 1 MB.'] });
    const none = await admin.request('POST', `${API}/uploads`, { body: {} });
    expect(none.statusCode).toBe(422);
    expect((await new TestClient(t.app).get('/api/v1/branding/AAAAAAAAAAAAAAAAAAAAAAAA.png')).statusCode).toBe(404);
    expect((await new TestClient(t.app).get('/api/v1/branding/..%2F..%2Fetc')).statusCode).toBe(404);
  });

  it('the manifest follows the saved branding: name and uploaded favicon', async () => {
    await restoreSettingsAfterTest(t.app, APPEARANCE_KEYS);
    const { url } = (await upload('favicon.png', PNG, 'image/png')).json();
    await admin.request('PUT', API, { body: { 'branding.site_name': 'Acme Cloud Files', 'branding.favicon': url } });
    const manifest = (await new TestClient(t.app).get('/manifest.webmanifest')).json();
    expect(manifest.name).toBe('Acme Cloud Files');
    expect(manifest.short_name).toBe('Acme');
    expect(manifest.icons[0]).toEqual({ src: url, sizes: 'any', type: 'image/png', purpose: 'any' });
  });
});
