import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes, signedInUser, uploadFile } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/** S3_DOWNLOADS=redirect: downloads go to a short-lived presigned GET the peer serves; text previews still stream, sandboxed. */
describe('downloads redirected to the S3 peer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ disk: 's3', env: { S3_DOWNLOADS: 'redirect', S3_URL_EXPIRES: '60' } });
  });
  afterAll(() => t.close());

  it('redirects a download to a presigned GET that the peer answers with the bytes and the attachment name', async () => {
    const { user, client } = await signedInUser(t.app);
    const file = await uploadFile(t.app, user, { name: 'report.csv', content: 'a,b\n1,2\n' });
    const res = await client.get(`/api/v1/file-entries/download?hashes=${file.hash}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers['cache-control']).toBe('no-store');
    const location = String(res.headers.location);
    expect(location.startsWith(`${t.s3!.endpoint}/`)).toBe(true);
    expect(location).toContain('X-Amz-Signature=');
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(await fetched.text()).toBe('a,b\n1,2\n');
    expect(fetched.headers.get('content-disposition')).toMatch(/^attachment; filename="report.csv"/);

    // The signature covers the disposition: asking the store for another one is refused.
    const changed = location.replace(/response-content-disposition=[^&]+/, 'response-content-disposition=inline');
    expect((await fetch(changed)).status).toBe(403);
  });

  it('redirects an image preview (no sandbox needed) but streams a text preview with its sandbox', async () => {
    const { user, client } = await signedInUser(t.app);
    const image = await uploadFile(t.app, user, { name: 'pic.png', content: await pngBytes(8, 8) });
    const shown = await client.get(`/api/v1/file-entries/${image.hash}/preview`);
    expect(shown.statusCode).toBe(302);
    const fetched = await fetch(String(shown.headers.location));
    expect(fetched.headers.get('content-type')).toBe('image/png');
    expect(fetched.headers.get('content-disposition')).toMatch(/^inline;/);

    const notes = await uploadFile(t.app, user, { name: 'notes.md', content: '# Notes' });
    const res = await client.get(`/api/v1/file-entries/${notes.hash}/preview`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('# Notes');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    // Markup has no preview at all: nothing to redirect or stream.
    const page = await uploadFile(t.app, user, { name: 'page.html', content: '<html><script>alert(1)</script></html>' });
    expect((await client.get(`/api/v1/file-entries/${page.hash}/preview`)).statusCode).toBe(404);
  });
});
