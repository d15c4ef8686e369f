import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { appWithPage, bootstrapIn } from '../support/app-with-page.js';
import { servicesOf } from '../support/services-handle.js';

const inline = (html: string) => bootstrapIn<{ user: { email: string } | null; branding: { site_name: string } }>(html);

describe('bootstrap data: shared parts read once, written into the page', () => {
  const site = appWithPage();

  const statements = async (call: () => Promise<{ statusCode: number }>) => {
    const before = servicesOf(site.app).db.counter.statements;
    expect((await call()).statusCode).toBe(200);
    return servicesOf(site.app).db.counter.statements - before;
  };

  it('a warm signed-in bootstrap reads only the user’s own counts, and an admin edit shows at once', async () => {
    const { client } = await signedInUser(site.app);
    const { client: admin } = await signedInUser(site.app, { roles: ['admin'] });
    await client.get('/api/v1/bootstrap-data');
    expect(await statements(() => client.get('/api/v1/bootstrap-data'))).toBeLessThanOrEqual(2);
    const saved = await admin.request('PUT', '/api/v1/admin/settings', { body: { 'branding.site_name': 'Renamed drive' } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await client.get('/api/v1/bootstrap-data')).json().data.branding.site_name).toBe('Renamed drive');
  });

  it('serves the page with the caller’s bootstrap data, personal and escaped', async () => {
    const guest = await new TestClient(site.app).get('/login');
    expect(guest.statusCode).toBe(200);
    expect(guest.headers['cache-control']).toBe('private, no-cache');
    expect(inline(guest.body)?.data.user).toBeNull();

    const { user, client } = await signedInUser(site.app);
    const page = await client.get('/drive');
    expect(inline(page.body)?.data.user?.email).toBe(user.email);
    // The same bytes GET bootstrap-data would answer, through the same schema.
    const api = (await client.get('/api/v1/bootstrap-data')).json();
    expect(inline(page.body)).toEqual(api);

    const { client: admin } = await signedInUser(site.app, { roles: ['admin'] });
    await admin.request('PUT', '/api/v1/admin/settings', { body: { 'branding.site_name': '</script><script>alert(1)</script>' } });
    const escaped = await new TestClient(site.app).get('/login');
    expect(escaped.body).not.toContain('</script><script>alert(1)');
    expect(inline(escaped.body)?.data.branding.site_name).toBe('</script><script>alert(1)</script>');
  });
});
