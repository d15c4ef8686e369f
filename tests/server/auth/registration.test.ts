import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { linkFromMail, mailsTo } from '../support/mail.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

const validBody = (email: string) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email,
  password: 'analytical engine',
  password_confirmation: 'analytical engine',
  terms: true,
  privacy: true,
});

describe('POST /auth/register', () => {
  let t: TestApp;
  let n = 0;
  const nextEmail = () => `new${++n}@example.com`;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => servicesOf(t.app).settings.set({ 'registration.disable': false, require_email_confirmation: false }));

  it('creates the account, signs it in with the default role and answers status success', async () => {
    const client = new TestClient(t.app);
    const email = nextEmail();
    const res = await client.post('/auth/register', validBody(email));
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('success');
    const user = res.json().bootstrapData.user;
    expect(user).toMatchObject({ email, first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada Lovelace' });
    expect(user.email_verified_at).toEqual(expect.any(String));
    expect(user.roles.map((r: { name: string }) => r.name)).toEqual(['users']);
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user.email).toBe(email);
  });

  it('requires every policy to be accepted, naming it', async () => {
    const { privacy: _privacy, ...withoutPrivacy } = validBody(nextEmail());
    const res = await new TestClient(t.app).post('/auth/register', { ...withoutPrivacy, terms: true });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ privacy: ['You must accept the Privacy Policy.'] });
  });

  it('enforces the required fields, the email type and the confirmation (spec §5)', async () => {
    const res = await new TestClient(t.app).post('/auth/register', {
      email: 'nope',
      password: 'analytical engine',
      password_confirmation: 'different words',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      first_name: ['The first name field is required.'],
      last_name: ['The last name field is required.'],
      email: ['The email field must be a valid email address.'],
    });
    const mismatch = await new TestClient(t.app).post('/auth/register', { ...validBody(nextEmail()), password_confirmation: 'other thing' });
    expect(mismatch.json().errors).toEqual({ password_confirmation: ['The password confirmation does not match.'] });
  });

  it('refuses an email that is taken, whatever its case', async () => {
    const email = nextEmail();
    await new TestClient(t.app).post('/auth/register', validBody(email));
    const res = await new TestClient(t.app).post('/auth/register', validBody(email.toUpperCase()));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: ['The email has already been taken.'] });
  });

  it('is refused when registration is disabled', async () => {
    await servicesOf(t.app).settings.set({ 'registration.disable': true });
    const res = await new TestClient(t.app).post('/auth/register', validBody(nextEmail()));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Registration is disabled on this site.' });
  });

  it('answers needs_email_verification and mails a 24-hour link that verifies once', async () => {
    await servicesOf(t.app).settings.set({ require_email_confirmation: true });
    const client = new TestClient(t.app);
    const email = nextEmail();
    const res = await client.post('/auth/register', validBody(email));
    expect(res.json().status).toBe('needs_email_verification');
    expect(res.json().bootstrapData.user.email_verified_at).toBeNull();

    // The mail goes out through the job queue, after the answer.
    await servicesOf(t.app).jobs.idle();
    const mails = await mailsTo(t.dataDir, email);
    expect(mails).toHaveLength(1);
    const token = await servicesOf(t.app)
      .db.kysely.selectFrom('user_tokens')
      .select(['created_at', 'expires_at'])
      .where('type', '=', 'verify_email')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(Date.parse(token.expires_at) - Date.parse(token.created_at)).toBe(24 * 60 * 60 * 1000);
    expect(mails[0]!.text).toContain('valid for 24 hours');
    const link = await linkFromMail(t.dataDir, email, '/auth/email/verify');
    const visit = await client.get(link.pathname + link.search);
    expect(visit.statusCode).toBe(302);
    expect(visit.headers.location).toBe('/drive?verified=1');
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user.email_verified_at).toEqual(expect.any(String));

    const again = await client.get(link.pathname + link.search);
    expect(again.headers.location).toBe('/drive?verified=0');
  });

  it('refuses an expired verification link', async () => {
    await servicesOf(t.app).settings.set({ require_email_confirmation: true });
    const client = new TestClient(t.app);
    const email = nextEmail();
    await client.post('/auth/register', validBody(email));
    await servicesOf(t.app).jobs.idle();
    const link = await linkFromMail(t.dataDir, email, '/auth/email/verify');
    await servicesOf(t.app)
      .db.kysely.updateTable('user_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await client.get(link.pathname + link.search)).headers.location).toBe('/drive?verified=0');
    expect((await client.get('/api/v1/bootstrap-data')).json().data.user.email_verified_at).toBeNull();
  });

  it('resends the verification mail with the spec’s answer, and throttles resends', async () => {
    await servicesOf(t.app).settings.set({ require_email_confirmation: true });
    const client = new TestClient(t.app);
    const email = nextEmail();
    await client.post('/auth/register', validBody(email));
    for (let i = 0; i < 3; i += 1) {
      const res = await client.post('/auth/email/verification-notification', { email });
      expect(res.json()).toEqual({ message: 'Email sent' });
    }
    await servicesOf(t.app).jobs.idle();
    expect(await mailsTo(t.dataDir, email)).toHaveLength(4);
    const limited = await client.post('/auth/email/verification-notification', { email });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
  });
});
