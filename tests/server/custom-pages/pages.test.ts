import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser, signedInUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** Payloads that must not survive a save, each with what would give it away in the stored body. */
const XSS: { name: string; html: string; forbidden: RegExp }[] = [
  { name: 'script tag', html: '<p>a</p><script>alert(1)</script>', forbidden: /<script|alert\(1\)/i },
  { name: 'img onerror', html: '<img src="/x.png" onerror="alert(1)">', forbidden: /onerror/i },
  { name: 'onclick on a paragraph', html: '<p onclick="alert(1)">hi</p>', forbidden: /onclick/i },
  { name: 'javascript: link', html: '<a href="javascript:alert(1)">x</a>', forbidden: /javascript:/i },
  { name: 'entity-encoded javascript: link', html: '<a href="jav&#x61;script:alert(1)">x</a>', forbidden: /script:/i },
  { name: 'data: link', html: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>', forbidden: /data:/i },
  { name: 'data: image', html: '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">', forbidden: /data:/i },
  { name: 'svg onload', html: '<svg onload="alert(1)"><circle r="1"/></svg>', forbidden: /<svg|onload/i },
  { name: 'foreign iframe', html: '<iframe src="https://evil.example.com/"></iframe>', forbidden: /evil\.example/i },
  { name: 'javascript: iframe', html: '<iframe src="javascript:alert(1)"></iframe>', forbidden: /javascript:/i },
  { name: 'style expression', html: '<p style="width: expression(alert(1))">x</p>', forbidden: /expression/i },
  { name: 'style url', html: '<p style="background-image: url(javascript:alert(1))">x</p>', forbidden: /url\(|javascript/i },
  { name: 'style tag', html: '<style>body{background:url(javascript:alert(1))}</style>', forbidden: /<style|javascript/i },
  { name: 'object embed', html: '<object data="x.swf"></object><embed src="x.swf">', forbidden: /<object|<embed/i },
  { name: 'protocol-relative link', html: '<a href="//evil.example.com">x</a>', forbidden: /evil\.example/i },
  { name: 'form with action', html: '<form action="https://evil.example.com"><input name="p"></form>', forbidden: /<form|<input/i },
  { name: 'meta refresh', html: '<meta http-equiv="refresh" content="0;url=https://evil.example.com">', forbidden: /<meta|evil/i },
];

const page = (over: Record<string, unknown> = {}) => ({
  title: 'About us',
  slug: `about-${Math.random().toString(36).slice(2, 8)}`,
  body: '<h2>Hello</h2><p class="ql-align-center">We <strong>store</strong> files. <a href="https://example.com" target="_blank">More</a></p>',
  meta: { description: 'All about the team', keywords: 'team, drive', og_image: '/og.png' },
  visibility: 'public',
  ...over,
});

describe('custom pages', () => {
  let t: TestApp;
  let admin: TestClient;
  let webDir: string;
  beforeAll(async () => {
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), 'drive-web-'));
    await fs.writeFile(
      path.join(webDir, 'index.html'),
      '<!doctype html><html><head><meta name="description" content="App default" /><title>Drive</title></head><body><div id="root"></div></body></html>',
    );
    t = await createTestApp({ env: { WEB_DIST_DIR: webDir } });
    admin = (await signedInUser(t.app, { roles: ['admin'] })).client;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  it('creates, lists, edits and deletes a page, each change in the admin log', async () => {
    const created = await admin.post('/api/v1/admin/custom-pages', page({ slug: 'crud-page' }));
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json().page;
    expect(created.json().page).toMatchObject({ title: 'About us', slug: 'crud-page', visibility: 'public', meta: { description: 'All about the team' } });

    const list = (await admin.get('/api/v1/admin/custom-pages?query=crud')).json();
    expect(list.pagination.data.map((p: { slug: string }) => p.slug)).toEqual(['crud-page']);

    const edited = await admin.request('PUT', `/api/v1/admin/custom-pages/${id}`, { body: page({ title: 'Renamed', slug: 'crud-renamed' }) });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await admin.get(`/api/v1/admin/custom-pages/${id}`)).json().page.title).toBe('Renamed');
    expect((await admin.get('/api/v1/custom-pages/crud-page')).statusCode).toBe(404);
    expect((await admin.get('/api/v1/custom-pages/crud-renamed')).json().page.title).toBe('Renamed');

    expect((await admin.request('DELETE', `/api/v1/admin/custom-pages/${id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/v1/admin/custom-pages/${id}`)).statusCode).toBe(404);
    expect((await admin.request('DELETE', `/api/v1/admin/custom-pages/${id}`)).statusCode).toBe(404);
    expect((await admin.request('PUT', `/api/v1/admin/custom-pages/${id}`, { body: page() })).statusCode).toBe(404);

    const log = (await admin.get('/api/v1/admin/activity?query=custom_page')).json().pagination.data.map((r: { action: string }) => r.action);
    expect(log).toEqual(expect.arrayContaining(['custom_page.created', 'custom_page.updated', 'custom_page.deleted']));
  });

  it('refuses duplicate and malformed slugs and unsafe image addresses as field errors, keeping the stored page', async () => {
    const first = (await admin.post('/api/v1/admin/custom-pages', page({ slug: 'taken-slug', title: 'Original' }))).json().page;
    const dup = await admin.post('/api/v1/admin/custom-pages', page({ slug: 'taken-slug' }));
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.slug).toEqual(['Another page already uses this slug.']);

    const other = (await admin.post('/api/v1/admin/custom-pages', page())).json().page;
    const clash = await admin.request('PUT', `/api/v1/admin/custom-pages/${other.id}`, { body: page({ slug: 'taken-slug', title: 'Changed' }) });
    expect(clash.statusCode).toBe(422);
    expect((await admin.get(`/api/v1/admin/custom-pages/${other.id}`)).json().page.title).toBe('About us');

    for (const slug of ['Has Space', 'UPPER', 'a--b', '-lead', 'ünï', '../etc', 'x']) {
      const res = await admin.post('/api/v1/admin/custom-pages', page({ slug }));
      expect(res.statusCode, slug).toBe(422);
      expect(res.json().errors.slug, slug).toBeDefined();
    }
    // Issue 30 finding 7: a tab or line break inside, or a backslash, makes a browser read another host.
    for (const og_image of ['javascript:alert(1)', '/\t/evil.example/x.png', '/\n/evil.example/x.png', '/\\evil.example/x.png']) {
      const image = await admin.post('/api/v1/admin/custom-pages', page({ meta: { description: '', keywords: '', og_image } }));
      expect(image.statusCode, JSON.stringify(og_image)).toBe(422);
      expect(Object.keys(image.json().errors)).toEqual(['meta.og_image']);
    }
    expect((await admin.get(`/api/v1/admin/custom-pages/${first.id}`)).json().page.title).toBe('Original');
  });

  it.each(XSS)('strips $name on save and on output', async ({ html, forbidden }) => {
    const res = await admin.post('/api/v1/admin/custom-pages', page({ body: `<p>kept</p>${html}` }));
    expect(res.statusCode, res.body).toBe(200);
    const { slug } = res.json().page;
    expect(res.json().page.body).not.toMatch(forbidden);
    const stored = await servicesOf(t.app).db.kysely.selectFrom('custom_pages').select('body').where('slug', '=', slug).executeTakeFirstOrThrow();
    expect(stored.body).not.toMatch(forbidden);
    expect(stored.body).toContain('<p>kept</p>');
    expect((await new TestClient(t.app).get(`/api/v1/custom-pages/${slug}`)).json().page.body).not.toMatch(forbidden);
  });

  it('cleans a body written around the API (an old row) on the way out', async () => {
    const now = new Date().toISOString();
    await servicesOf(t.app)
      .db.kysely.insertInto('custom_pages')
      .values({ title: 'Old', slug: 'old-raw', body: '<p>ok</p><script>alert(1)</script><img src=x onerror=alert(1)>', created_at: now, updated_at: now })
      .execute();
    const body = (await new TestClient(t.app).get('/api/v1/custom-pages/old-raw')).json().page.body as string;
    expect(body).toContain('<p>ok</p>');
    expect(body).not.toMatch(/script|onerror/i);
  });

  it('keeps what the editor produces: headings, alignment classes, safe links (new tabs get noopener)', async () => {
    const res = (await admin.post('/api/v1/admin/custom-pages', page())).json().page;
    expect(res.body).toContain('<h2>Hello</h2>');
    expect(res.body).toContain('class="ql-align-center"');
    expect(res.body).toContain('href="https://example.com"');
    expect(res.body).toContain('rel="noopener noreferrer"');
  });

  it('answers GET custom-pages/{slug} with the page and its SEO tags; guests get 401 for signed-in pages, anyone 404 for unknown slugs', async () => {
    await admin.post('/api/v1/admin/custom-pages', page({ slug: 'public-one', title: 'Public one' }));
    await admin.post('/api/v1/admin/custom-pages', page({ slug: 'members-only', title: 'Members', visibility: 'signed_in' }));
    const guest = new TestClient(t.app);

    const open = await guest.get('/api/v1/custom-pages/public-one');
    expect(open.statusCode).toBe(200);
    expect(open.json().page).toMatchObject({ title: 'Public one', slug: 'public-one' });
    expect(open.json().seo.tags).toContainEqual({ attribute: 'name', key: 'description', content: 'All about the team' });
    expect(open.json().seo.tags).toContainEqual({ attribute: 'property', key: 'og:title', content: 'Public one' });

    const closed = await guest.get('/api/v1/custom-pages/members-only');
    expect(closed.statusCode).toBe(401);
    expect(closed.body).not.toContain('Members');
    const member = await createUser(servicesOf(t.app).db.kysely);
    const signed = new TestClient(t.app);
    await signed.login(member.email, member.password);
    expect((await signed.get('/api/v1/custom-pages/members-only')).statusCode).toBe(200);

    expect((await guest.get('/api/v1/custom-pages/no-such-page')).statusCode).toBe(404);
  });

  it('serves /pages/{slug} with the page title, description and Open Graph tags in the HTML head, escaped', async () => {
    await admin.post(
      '/api/v1/admin/custom-pages',
      page({
        slug: 'seo-page',
        title: 'Prices & "plans" <today> $&',
        meta: { description: 'Cheap </title><script>x</script> storage', keywords: '', og_image: '/og.png' },
      }),
    );
    const res = await new TestClient(t.app).get('/pages/seo-page');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    const html = res.body;
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<title>Prices &amp; &quot;plans&quot; &lt;today&gt; $&amp;');
    expect(head).toContain('<meta name="description" content="Cheap &lt;/title&gt;&lt;script&gt;x&lt;/script&gt; storage" data-seo />');
    expect(head).toContain('<meta property="og:title" content="Prices &amp; &quot;plans&quot; &lt;today&gt; $&amp;" data-seo />');
    expect(head).toMatch(/<meta property="og:image" content="http[^"]+\/og\.png" data-seo \/>/);
    expect(head).not.toContain('App default');
    expect(head).not.toContain('<script>');
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it('serves the plain app for unknown and signed-in-only pages (no page text leaks into the HTML)', async () => {
    await admin.post('/api/v1/admin/custom-pages', page({ slug: 'secret-page', title: 'Secret title', visibility: 'signed_in' }));
    const guest = new TestClient(t.app);
    for (const url of ['/pages/secret-page', '/pages/unknown-page']) {
      const res = await guest.get(url);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Drive</title>');
      expect(res.body).not.toContain('Secret title');
    }
    // Page loads are not authenticated: a signed-in visitor's HTML is the guest's too (the app fills in the head).
    expect((await admin.get('/pages/secret-page')).body).not.toContain('Secret title');
  });
});
