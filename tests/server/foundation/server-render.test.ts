import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser, uploadFile } from '../support/drive-factories.js';
import { bootstrapIn } from '../support/app-with-page.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** #root as index.html has it: the static shell, up to the end marker the server's markup replaces. */
const PAGE_HTML =
  '<!doctype html><html lang="en"><head><title>Drive</title></head><body>' +
  '<div id="root">\n  <div id="boot-shell" role="progressbar" aria-label="Loading"></div>\n  <!--/shell-->\n</div></body></html>';

const queriesIn = (html: string) => {
  const match = /<script type="application\/json" id="server-queries">([\s\S]*?)<\/script>/.exec(html);
  return match ? (JSON.parse(match[1]!) as { queries: { queryKey: unknown[]; state: { data: unknown } }[] }) : null;
};

// Issue 38.1: the public screens are written by the server, with the app's own components (the renderer
// is src/entry-server.tsx, which the build bundles into dist/ssr; here the source is loaded as it is).
describe('the public screens written by the server', () => {
  let t: TestApp;
  let webDir: string;
  beforeAll(async () => {
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-web-'));
    await fs.writeFile(path.join(webDir, 'index.html'), PAGE_HTML);
    // A build's manifest as Vite writes it: the sign-in screen's chunk imports a shared one.
    await fs.mkdir(path.join(webDir, '.vite'));
    await fs.writeFile(
      path.join(webDir, '.vite', 'manifest.json'),
      JSON.stringify({
        'src/features/auth/LoginPage.tsx': { file: 'assets/LoginPage-a1.js', imports: ['_shared-b2.js'], isDynamicEntry: true },
        '_shared-b2.js': { file: 'assets/shared-b2.js' },
      }),
    );
    t = await createTestApp({ env: { WEB_DIST_DIR: webDir, WEB_SSR_ENTRY: path.resolve('src/entry-server.tsx') } });
  });
  afterAll(async () => {
    await t.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  it('sends /login with the sign-in form in #root, marked for hydration, beside the bootstrap data', async () => {
    const res = await new TestClient(t.app).get('/login');
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<div id="root" data-server-rendered>');
    expect(html).not.toContain('boot-shell');
    expect(html).toMatch(/<h1[^>]*>Sign in to your account<\/h1>/);
    expect(html).toMatch(/<form[^>]*>[\s\S]*id="login-email"[\s\S]*id="login-password"[\s\S]*<\/form>/);
    expect(bootstrapIn<{ user: unknown }>(html)?.data.user).toBeNull();
    // No inline script: the page's CSP allows none (the queries travel as a JSON data block).
    expect(html).not.toMatch(/<script(?![^>]*type="application\/json")[^>]*>[^<]/);
    expect(String(res.headers['content-security-policy'])).not.toMatch(/script-src[^;]*unsafe-inline/);
    // The screen's code is named in the page, so hydration need not wait for the entry to ask for it; in an inert
    // template (src/boot.ts fetches it after the first paint), not the head, where it would share the wire with the CSS.
    const preloads = /<template id="screen-preloads">([\s\S]*?)<\/template>/.exec(html)?.[1] ?? '';
    expect(preloads).toContain('<link rel="modulepreload" crossorigin href="/assets/LoginPage-a1.js">');
    expect(preloads).toContain('<link rel="modulepreload" crossorigin href="/assets/shared-b2.js">');
    expect(html.slice(0, html.indexOf('</head>'))).not.toContain('LoginPage-a1.js');
  });

  it('writes /register and /forgot-password too', async () => {
    const client = new TestClient(t.app);
    expect((await client.get('/register')).body).toMatch(/<h1[^>]*>Create a new account<\/h1>/);
    expect((await client.get('/forgot-password')).body).toContain('data-server-rendered');
  });

  it('writes the page in the visitor’s language, with <html lang> to match', async () => {
    const html = (await new TestClient(t.app).get('/login', { cookie: 'locale=tr' })).body;
    expect(bootstrapIn<{ i18n: { language: string } }>(html)?.data.i18n.language).toBe('tr');
    expect(html).toContain('<html lang="tr"');
    expect(html).toMatch(/<h1[^>]*>Hesabınızda oturum açın<\/h1>/);
  });

  it('sends /pricing with the plans in it and the products query the browser starts from', async () => {
    const html = (await new TestClient(t.app).get('/pricing')).body;
    expect(html).toContain('data-server-rendered');
    expect(html).toMatch(/<h2 id="plan-\d+"[^>]*>Pro<\/h2>/);
    const products = queriesIn(html)?.queries.find((q) => JSON.stringify(q.queryKey) === '["billing","products"]');
    expect((products?.state.data as { name: string }[]).map((p) => p.name)).toEqual(['Free', 'Pro', 'Business']);
  });

  it('shows the cookie notice unless the request carries its cookie', async () => {
    const client = new TestClient(t.app);
    expect((await client.get('/login')).body).toContain('aria-label="Cookie notice"');
    client.cookies.set('cookie_notice', 'true');
    expect((await client.get('/login')).body).not.toContain('aria-label="Cookie notice"');
  });

  it('leaves a signed-in /login, a guest at /drive and the other screens to the browser: the static shell', async () => {
    const { client } = await signedInUser(t.app);
    for (const html of [(await client.get('/login')).body, (await client.get('/account-settings')).body, (await new TestClient(t.app).get('/drive')).body]) {
      expect(html).not.toMatch(/data-server-(rendered|preview)/);
      expect(html).toContain('boot-shell');
    }
  });

  it('paints a signed-in /drive with its frame (navbar, toolbar) as a preview the browser replaces, not hydrates', async () => {
    const { client } = await signedInUser(t.app);
    const html = (await client.get('/drive')).body;
    expect(html).toContain('<div id="root" data-server-preview inert>');
    expect(html).not.toContain('boot-shell');
    expect(html).toMatch(/<header[^>]*>[\s\S]*<\/header>/);
    expect(html).toMatch(/<h1[^>]*>[^<]*Drive[^<]*<\/h1>/);
    expect(html).not.toMatch(/<script(?![^>]*type="application\/json")[^>]*>[^<]/);
  });

  it('writes a large page in place, without the inline script React would move an outlined part in with (the CSP refuses it)', async () => {
    const { user, client } = await signedInUser(t.app);
    for (let i = 0; i < 60; i++) await uploadFile(t.app, user, { name: `report ${String(i).padStart(3, '0')} with a name long enough to weigh.txt` });
    const html = (await client.get('/drive')).body;
    expect(html.length).toBeGreaterThan(40_000);
    expect(html).toContain('data-server-preview');
    expect(html).not.toMatch(/<script(?![^>]*type="application\/json")[^>]*>[^<]/);
    expect(html).not.toContain('<template');
  });
});
