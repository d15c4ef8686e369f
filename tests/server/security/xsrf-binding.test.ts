import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** Issue 10 finding 7: a planted XSRF-TOKEN cookie with a matching header must not pass with someone's session. */
describe('the XSRF token is bound to the session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const signedIn = async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    const before = (await client.get('/api/v1/health'), client.cookies.get('XSRF-TOKEN'));
    await client.login(user.email, user.password);
    return { client, before };
  };

  it('rotates at sign-in, and a planted token with the matching header is refused', async () => {
    const { client, before } = await signedIn();
    const bound = client.cookies.get('XSRF-TOKEN');
    expect(bound).toBeDefined();
    expect(bound).not.toBe(before);
    expect((await client.post('/api/v1/folders', { name: 'Legit' })).statusCode).toBe(200);

    // What an attacker who can set cookies on the site (a sibling subdomain) would do.
    client.cookies.set('XSRF-TOKEN', 'planted-by-attacker');
    const planted = await client.request('POST', '/api/v1/folders', { body: { name: 'Forged' } });
    expect(planted.statusCode).toBe(403);
    expect(planted.json().message).toBe('CSRF token mismatch. Please reload the page and try again.');
  });

  it('hands the bound token back on the next page load, and signing out rotates it again', async () => {
    const { client } = await signedIn();
    const bound = client.cookies.get('XSRF-TOKEN')!;
    client.cookies.set('XSRF-TOKEN', 'stale');
    await client.get('/api/v1/health');
    expect(client.cookies.get('XSRF-TOKEN')).toBe(bound);
    await client.post('/auth/logout');
    const guest = client.cookies.get('XSRF-TOKEN');
    expect(guest).toBeDefined();
    expect(guest).not.toBe(bound);
  });

  it('another session never shares a token', async () => {
    const a = await signedIn();
    const b = await signedIn();
    expect(a.client.cookies.get('XSRF-TOKEN')).not.toBe(b.client.cookies.get('XSRF-TOKEN'));
    // B's token, even as both cookie and header, does not pass with A's session.
    a.client.xsrf = false;
    a.client.cookies.set('XSRF-TOKEN', b.client.cookies.get('XSRF-TOKEN')!);
    const res = await a.client.request('POST', '/api/v1/folders', { body: { name: 'x' }, headers: { 'x-xsrf-token': b.client.cookies.get('XSRF-TOKEN')! } });
    expect(res.statusCode).toBe(403);
  });

  // Issue 39 item 7: the client refreshes its token and retries once on this answer, so it must be told apart
  // from other 403s in any language, and must itself carry the token that passes.
  it('marks a CSRF refusal with a header and hands over the token that passes in the same answer', async () => {
    const { client } = await signedIn();
    const bound = client.cookies.get('XSRF-TOKEN')!;
    client.cookies.set('XSRF-TOKEN', 'left-over-from-a-long-open-tab');
    const refused = await client.request('POST', '/api/v1/folders', { body: { name: 'First try' }, headers: { 'accept-language': 'tr' } });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['x-xsrf-mismatch']).toBe('1');
    expect(client.cookies.get('XSRF-TOKEN')).toBe(bound);
    expect((await client.post('/api/v1/folders', { name: 'Second try' })).statusCode).toBe(200);

    const otherRefusal = await new TestClient(t.app).get('/api/v1/admin/users');
    expect(otherRefusal.statusCode).toBe(401);
    expect(otherRefusal.headers['x-xsrf-mismatch']).toBeUndefined();
  });

  it('hashes the session cookie once a request: the XSRF binding and the session look-up share the hash (issue 38 §3)', async () => {
    const { client } = await signedIn();
    const token = client.cookies.get('drive_session')!;
    const sessions = servicesOf(t.app).auth.sessions;
    const resolve = vi.spyOn(sessions, 'resolve');
    try {
      expect((await client.get('/api/v1/drive/file-entries')).statusCode).toBe(200);
      expect(resolve).toHaveBeenCalledWith(token, createHash('sha256').update(token).digest('hex'));
    } finally {
      resolve.mockRestore();
    }
  });
});
