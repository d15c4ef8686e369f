import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { setSettingsForTest } from '../support/settings.js';
import { appWithPage, bootstrapIn } from '../support/app-with-page.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('serving the built app', () => {
  let t: TestApp;
  let webDir: string;
  const bigScript = `console.log(${JSON.stringify('x'.repeat(20_000))});`;

  beforeAll(async () => {
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-web-'));
    await fs.mkdir(path.join(webDir, 'assets'));
    await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await fs.writeFile(path.join(webDir, 'assets', 'index-AbC123.js'), bigScript);
    await fs.writeFile(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await fs.writeFile(path.join(webDir, 'manifest.webmanifest'), '{}');
    t = await createTestApp({ env: { WEB_DIST_DIR: webDir } });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  it.each(['/', '/drive', '/login', '/sw.js', '/assets/index-AbC123.js'])('sends the security headers with %s (issue 10 finding 6)', async (url) => {
    const res = await new TestClient(t.app).get(url);
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('lets the human-check script in only while the check is turned on', async () => {
    const client = new TestClient(t.app);
    expect(String((await client.get('/login')).headers['content-security-policy'])).not.toContain('google.com');
    await setSettingsForTest(t.app, { 'recaptcha.site_key': 'site-key', 'recaptcha.enable.register': true });
    expect(String((await client.get('/register')).headers['content-security-policy'])).toContain('https://www.google.com/recaptcha/');
  });

  it('leaves API answers to their own headers', async () => {
    const res = await new TestClient(t.app).get('/api/v1/health');
    expect(res.headers['content-security-policy']).toBeUndefined();
  });

  it('caches hashed assets for a year', async () => {
    const res = await new TestClient(t.app).get('/assets/index-AbC123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('compresses what it serves', async () => {
    const res = await new TestClient(t.app).get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(bigScript.length / 10);
  });

  it('revalidates the service worker and index.html on every load', async () => {
    const sw = await new TestClient(t.app).get('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    const page = await new TestClient(t.app).get('/drive/folders/abc');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.body).toContain('id="root"');
  });

  it('falls back to index.html for any app route, including unknown ones', async () => {
    for (const url of ['/', '/login', '/admin/users', '/some/unknown/path']) {
      const res = await new TestClient(t.app).get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('id="root"');
    }
  });

  it('never answers API paths or missing files with the app', async () => {
    expect((await new TestClient(t.app).get('/api/v1/unknown')).json()).toEqual({ message: 'Not found.' });
    expect((await new TestClient(t.app).get('/assets/missing.js')).statusCode).toBe(404);
  });

  it('reports database and storage health', async () => {
    const res = await new TestClient(t.app).get('/api/v1/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: { status: 'ok', dialect: process.env.TEST_DIALECT ?? 'sqlite' },
      storage: { status: 'ok' },
    });
  });
});

describe('health when storage fails', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 503 and says what failed without saying where', async () => {
    // A file where the storage folder should be: nothing can be written there.
    await fs.rm(t.config.storageDir, { recursive: true, force: true });
    await fs.writeFile(t.config.storageDir, 'not a folder');
    const res = await new TestClient(t.app).get('/api/v1/health');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'error',
      database: { status: 'ok' },
      storage: { status: 'error', message: 'The storage folder is not writable.' },
    });
    expect(res.body).not.toContain(t.config.storageDir);
  });
});

describe('web app manifest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is built from branding and the default light theme', async () => {
    await setSettingsForTest(t.app, { 'branding.site_name': 'Acme Cloud Files' });
    const res = await new TestClient(t.app).get('/manifest.webmanifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/manifest\+json/);
    const manifest = res.json();
    expect(manifest).toMatchObject({
      name: 'Acme Cloud Files',
      short_name: 'Acme',
      start_url: '/',
      display: 'standalone',
      theme_color: '#1a73e8',
      background_color: '#ffffff',
    });
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes}/${i.purpose}`)).toEqual([
      '192x192/any',
      '512x512/any',
      '192x192/maskable',
      '512x512/maskable',
    ]);
  });

  it('makes the installed app a share target for any file, a .docx handler and one window (issue 39 item 5)', async () => {
    const manifest = (await new TestClient(t.app).get('/manifest.webmanifest')).json();
    expect(manifest.share_target).toEqual({
      action: '/share-target',
      method: 'POST',
      enctype: 'multipart/form-data',
      params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'files', accept: ['*/*'] }] },
    });
    expect(manifest.file_handlers).toEqual([
      { action: '/drive', accept: { 'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'] } },
    ]);
    expect(manifest.launch_handler).toEqual({ client_mode: 'focus-existing' });
    // Both actions are inside the app's scope, or the browser ignores them.
    for (const action of [manifest.share_target.action, manifest.file_handlers[0].action]) expect(action.startsWith(manifest.scope)).toBe(true);
  });
});

describe('bootstrap data written into the page (issue 30 finding 6)', () => {
  const site = appWithPage();

  it("keeps $' $` $& in an admin's CSS and a user's name as data, never as replacement patterns", async () => {
    await servicesOf(site.app).settings.set({ 'custom_code.css': "a::after{content:'$'} b::after{content:'$`'} i::after{content:'$&'}" });
    const { client } = await signedInUser(site.app);
    const named = await client.request('PUT', '/api/v1/users/me', { body: { first_name: "$' $` $&" } });
    expect(named.statusCode, named.body).toBe(200);

    for (const [who, visitor] of [
      ['guest', new TestClient(site.app)],
      ['the user', client],
    ] as const) {
      const page = await visitor.get('/drive');
      expect(page.statusCode, who).toBe(200);
      expect(page.body.match(/<\/head>/g), who).toHaveLength(1);
      expect(page.body.match(/<!doctype html>/g), who).toHaveLength(1);
      expect(page.body, who).toMatch(/<\/script><\/head><body><div id="root"><\/div><\/body><\/html>$/);
      const data = bootstrapIn<{ settings: { custom_code: { css: string } }; user: { first_name: string } | null }>(page.body)!.data;
      expect(data.settings.custom_code.css, who).toBe("a::after{content:'$'} b::after{content:'$`'} i::after{content:'$&'}");
      if (visitor === client) expect(data.user?.first_name).toBe("$' $` $&");
    }
  });
});
