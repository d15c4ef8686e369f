import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, DISKS, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

function multipart(field: string, filename: string, type: string, bytes: Buffer) {
  const boundary = '----drive-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const png = (size = 400) =>
  sharp({ create: { width: size, height: size, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .png()
    .toBuffer();

describe.each(DISKS)('profile image (%s disk)', (disk) => {
  let t: TestApp;
  let client: TestClient;
  let userId: number;

  beforeAll(async () => {
    t = await createTestApp({ disk, env: { BODY_LIMIT: String(5 * 1024 * 1024) } });
    const user = await createUser(servicesOf(t.app).db.kysely);
    userId = user.id;
    client = new TestClient(t.app);
    await client.login(user.email, user.password);
  });
  afterAll(() => t.close());

  it('stores an uploaded image re-encoded as a 256 px WebP and serves it', async () => {
    const { body, headers } = multipart('file', 'me.png', 'image/png', await png());
    const res = await client.request('POST', `/api/v1/users/${userId}/avatar`, { body, headers });
    expect(res.statusCode).toBe(200);
    const { avatar } = res.json();
    expect(avatar).toMatch(/^\/api\/v1\/avatars\/[A-Za-z0-9_-]{24}\.webp$/);
    expect(res.json().user.avatar).toBe(avatar);

    const served = await new TestClient(t.app).get(avatar);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 256, height: 256 });
  });

  it('refuses what is not an image with the spec’s message, even when it claims to be one', async () => {
    const { body, headers } = multipart('file', 'evil.png', 'image/png', Buffer.from('<svg onload="alert(1)"></svg>'));
    const res = await client.request('POST', `/api/v1/users/${userId}/avatar`, { body, headers });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ avatar: ['Please select an image.'] });
  });

  it('refuses images over 2 MB', async () => {
    const big = Buffer.concat([await png(10), Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const { body, headers } = multipart('file', 'big.png', 'image/png', big);
    const res = await client.request('POST', `/api/v1/users/${userId}/avatar`, { body, headers });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.avatar[0]).toMatch(/2 MB/);
  });

  it.each([
    ['http://127.0.0.1/a.png', /private network/],
    ['http://10.0.0.8/a.png', /private network/],
    ['http://169.254.169.254/latest/meta-data/', /private network/],
    ['http://[::1]/a.png', /private network/],
    ['http://localhost/a.png', /private network/],
    ['file:///etc/passwd', /Only http and https/],
    ['gopher://example.com/', /Only http and https/],
  ])('refuses to fetch %s', async (url, message) => {
    const res = await client.post(`/api/v1/users/${userId}/avatar`, { url });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.url[0]).toMatch(message);
  });

  it('removes the image and its bytes', async () => {
    const { body, headers } = multipart('file', 'me.png', 'image/png', await png(64));
    const { avatar } = (await client.request('POST', `/api/v1/users/${userId}/avatar`, { body, headers })).json();
    const res = await client.request('DELETE', `/api/v1/users/${userId}/avatar`);
    expect(res.json().user.avatar).toBeNull();
    expect((await new TestClient(t.app).get(avatar)).statusCode).toBe(404);
  });

  it('replaces the old image’s bytes when a new one is set', async () => {
    const first = multipart('file', 'a.png', 'image/png', await png(64));
    const a = (await client.request('POST', `/api/v1/users/${userId}/avatar`, { body: first.body, headers: first.headers })).json().avatar;
    const second = multipart('file', 'b.png', 'image/png', await png(80));
    await client.request('POST', `/api/v1/users/${userId}/avatar`, { body: second.body, headers: second.headers });
    expect((await new TestClient(t.app).get(a)).statusCode).toBe(404);
  });
});
