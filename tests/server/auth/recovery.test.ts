import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { linkFromMail, mailsTo } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('forgot and reset password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const resetLink = async (email: string) => {
    // The mail goes out through the job queue, after the answer.
    await servicesOf(t.app).jobs.idle();
    const link = await linkFromMail(t.dataDir, email, '/password/reset/');
    return { token: decodeURIComponent(link.pathname.split('/').pop()!), email: link.searchParams.get('email')! };
  };

  it('answers a known and an unknown email the same, and mails only the known one', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const known = await new TestClient(t.app).post('/auth/forgot-password', { email: user.email });
    const unknown = await new TestClient(t.app).post('/auth/forgot-password', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    await servicesOf(t.app).jobs.idle();
    expect(await mailsTo(t.dataDir, user.email)).toHaveLength(1);
    expect(await mailsTo(t.dataDir, 'nobody@example.com')).toHaveLength(0);
  });

  it('resets the password once with the mailed token, and signs out every session', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const signedIn = new TestClient(t.app);
    await signedIn.login(user.email, user.password);
    await new TestClient(t.app).post('/auth/forgot-password', { email: user.email });
    const { token, email } = await resetLink(user.email);
    expect(email).toBe(user.email);
    // Short-lived: an hour.
    const row = await servicesOf(t.app)
      .db.kysely.selectFrom('user_tokens')
      .select(['created_at', 'expires_at'])
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(60 * 60 * 1000);

    const body = { token, email, password: 'a brand new password', password_confirmation: 'a brand new password' };
    const res = await new TestClient(t.app).post('/auth/reset-password', body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Your password has been reset!' });
    expect((await signedIn.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();
    await new TestClient(t.app).login(user.email, 'a brand new password');
    expect((await new TestClient(t.app).post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(422);

    const reused = await new TestClient(t.app).post('/auth/reset-password', {
      ...body,
      password: 'third password x',
      password_confirmation: 'third password x',
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().errors.email[0]).toMatch(/invalid or has expired/);
  });

  it('refuses an expired token, and a token used with another email without burning it', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const other = await createUser(servicesOf(t.app).db.kysely);
    await new TestClient(t.app).post('/auth/forgot-password', { email: user.email });
    const { token } = await resetLink(user.email);
    const body = { token, password: 'a brand new password', password_confirmation: 'a brand new password' };

    const wrongEmail = await new TestClient(t.app).post('/auth/reset-password', { ...body, email: other.email });
    expect(wrongEmail.statusCode).toBe(422);

    await servicesOf(t.app)
      .db.kysely.updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    const expired = await new TestClient(t.app).post('/auth/reset-password', { ...body, email: user.email });
    expect(expired.statusCode).toBe(422);
    expect(expired.json().errors.email[0]).toMatch(/invalid or has expired/);
  });

  it('validates the reset payload (spec §5)', async () => {
    const res = await new TestClient(t.app).post('/auth/reset-password', { token: 'x' });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'password', 'password_confirmation']);
  });

  it('throttles reset mails per address', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    // A client of its own, so it is the per-address limit that answers 429, not the per-client one the other tests feed.
    const client = new TestClient(t.app);
    client.remoteAddress = '192.0.2.4';
    for (let i = 0; i < 3; i += 1) expect((await client.post('/auth/forgot-password', { email: user.email })).statusCode).toBe(200);
    expect((await client.post('/auth/forgot-password', { email: user.email })).statusCode).toBe(429);
  });
});

describe('login throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  // Every test signs in from an address of its own: the per-client cap counts every failure from one
  // address, so tests sharing one would throttle each other (in whatever order they run).
  const clientAt = (address: string) => {
    const client = new TestClient(t.app);
    client.remoteAddress = address;
    return client;
  };

  it('answers 429 after a few failures for an account, even with the right password', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = clientAt('192.0.2.1');
    for (let i = 0; i < 5; i += 1) {
      expect((await client.post('/auth/login', { email: user.email, password: 'wrong' })).statusCode).toBe(422);
    }
    const blocked = await client.post('/auth/login', { email: user.email, password: user.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
  });

  it('clears an account’s failures after a successful sign-in', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = clientAt('192.0.2.2');
    for (let i = 0; i < 4; i += 1) await client.post('/auth/login', { email: user.email, password: 'wrong' });
    await client.login(user.email, user.password);
    for (let i = 0; i < 4; i += 1) expect((await client.post('/auth/login', { email: user.email, password: 'wrong' })).statusCode).toBe(422);
  });

  it('caps failures per client across accounts', async () => {
    const client = clientAt('192.0.2.3');
    let last = 0;
    for (let i = 0; i < 31; i += 1) {
      last = (await client.post('/auth/login', { email: `spray${i}@example.com`, password: 'x' })).statusCode;
    }
    expect(last).toBe(429);
  });
});
