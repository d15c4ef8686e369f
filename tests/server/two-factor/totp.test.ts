import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { sha256 } from '../../../server/lib/tokens.js';
import { matchingStep, totpCode } from '../../../server/modules/auth/two-factor/totp.js';
import { awayFromStepEnd, codeAt, enableTotp, forgetLastStep } from './support.js';
import { servicesOf } from '../support/services-handle.js';

const STEP = 30_000;

describe('two-factor sign-in with an authenticator app (issue 36)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A user with an authenticator app, and a client that is signed out again. */
  async function userWithTotp() {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    client.remoteAddress = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    await client.login(user.email, user.password);
    const { secret, recoveryCodes } = await enableTotp(client);
    await client.post('/auth/logout');
    return { user, client, secret, recoveryCodes };
  }

  /** The first step: the password is right, the sign-in waits. */
  async function firstStep(client: TestClient, email: string, password: string, remember = true) {
    const res = await client.post('/auth/login', { email, password, remember });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  }

  it('accepts codes a step either side of now and no further (RFC 6238 window 1)', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const now = Date.parse('2026-11-28T10:00:10Z');
    const step = Math.floor(now / STEP);
    const at = (ms: number) => matchingStep(secret, totpCode(secret, ms), now);
    expect(matchingStep(secret, 'abcdef', now)).toBe(null);
    expect(at(now)).toBe(step);
    expect(at(now - STEP)).toBe(step - 1);
    expect(at(now + STEP)).toBe(step + 1);
    expect(at(now - 2 * STEP)).toBe(null);
    expect(at(now + 2 * STEP)).toBe(null);
  });

  it('setup: a secret and otpauth URL, confirmed by a first code, then ten recovery codes stored hashed', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    expect((await client.get('/api/v1/user/two-factor')).json()).toEqual({ totp: false, recovery_codes_left: 0, has_password: true });
    const setup = (await client.post('/api/v1/user/two-factor/totp')).json();
    expect(setup.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]{32}.*&algorithm=SHA1&digits=6&period=30/);
    expect(setup.otpauth_url).toContain(encodeURIComponent(user.email));
    // Until confirmed, the account is not protected: a sign-in needs no second step.
    expect((await new TestClient(t.app).login(user.email, user.password)).json().two_factor).toBeUndefined();

    const wrong = await client.post('/api/v1/user/two-factor/totp/confirm', { code: codeAt(setup.secret, -2 * STEP) });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(['The code is invalid.']);
    await awayFromStepEnd();
    const confirmed = await client.post('/api/v1/user/two-factor/totp/confirm', { code: codeAt(setup.secret) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const codes: string[] = confirmed.json().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
    const stored = await servicesOf(t.app).db.kysely.selectFrom('two_factor_recovery_codes').select('code_hash').where('user_id', '=', user.id).execute();
    expect(stored.map((r) => r.code_hash).sort()).toEqual(codes.map((c) => sha256(c.replace('-', ''))).sort());
    expect((await client.get('/api/v1/user/two-factor')).json()).toEqual({ totp: true, recovery_codes_left: 10, has_password: true });

    // A confirmed app is not replaced behind the user's back.
    expect((await client.post('/api/v1/user/two-factor/totp')).statusCode).toBe(409);
    expect((await client.post('/api/v1/user/two-factor/totp/confirm', { code: codeAt(setup.secret) })).statusCode).toBe(409);
  });

  it('a sign-in with the right password waits for the second step and reaches nothing meanwhile', async () => {
    const { user, secret } = await userWithTotp();
    const client = new TestClient(t.app);
    const first = await firstStep(client, user.email, user.password);
    expect(first.json().two_factor).toEqual({ methods: ['totp', 'recovery_code'] });
    expect(first.json().bootstrapData.user).toBeNull();
    expect(client.cookies.has('drive_session')).toBe(false);
    expect(client.cookies.has('drive_sign_in')).toBe(true);

    expect((await client.get('/api/v1/bootstrap-data')).json().data.user).toBeNull();
    expect((await client.get(`/api/v1/users/${user.id}`)).statusCode).toBe(401);
    expect((await client.get('/api/v1/drive/file-entries')).statusCode).toBe(401);
    expect((await client.get('/api/v1/user/two-factor')).statusCode).toBe(401);
    // The challenge's token is no session token either.
    const asSession = new TestClient(t.app);
    asSession.cookies.set('drive_session', client.cookies.get('drive_sign_in')!);
    expect((await asSession.get(`/api/v1/users/${user.id}`)).statusCode).toBe(401);

    await awayFromStepEnd();
    const second = await client.post('/auth/two-factor', { code: codeAt(secret) });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().bootstrapData.user.id).toBe(user.id);
    expect(client.cookies.has('drive_sign_in')).toBe(false);
    expect((await client.get(`/api/v1/users/${user.id}`)).statusCode).toBe(200);
  });

  it('refuses a wrong code, and a code two steps old (outside the window)', async () => {
    const { user, secret } = await userWithTotp();
    const client = new TestClient(t.app);
    await firstStep(client, user.email, user.password);
    const wrong = await client.post('/auth/two-factor', { code: '000000' === codeAt(secret) ? '111111' : '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(['The code is invalid.']);
    const stale = await client.post('/auth/two-factor', { code: codeAt(secret, -2 * STEP) });
    expect(stale.statusCode).toBe(422);
    expect(stale.json().errors.code).toEqual(['The code is invalid.']);
    const early = await client.post('/auth/two-factor', { code: codeAt(secret, 2 * STEP) });
    expect(early.statusCode).toBe(422);
    expect(client.cookies.has('drive_session')).toBe(false);
  });

  it('accepts the code of the step before (a clock a step behind)', async () => {
    const { user, secret } = await userWithTotp();
    await forgetLastStep(t.app, user.id);
    const client = new TestClient(t.app);
    await firstStep(client, user.email, user.password);
    await awayFromStepEnd();
    expect((await client.post('/auth/two-factor', { code: codeAt(secret, -STEP) })).statusCode).toBe(200);
  });

  it('refuses a code used before in its window, and an older one after a newer was used', async () => {
    const { user, secret } = await userWithTotp();
    await awayFromStepEnd();
    const code = codeAt(secret);
    const a = new TestClient(t.app);
    await firstStep(a, user.email, user.password);
    expect((await a.post('/auth/two-factor', { code })).statusCode).toBe(200);

    const b = new TestClient(t.app);
    await firstStep(b, user.email, user.password);
    const replay = await b.post('/auth/two-factor', { code });
    expect(replay.statusCode).toBe(422);
    expect(replay.json().errors.code).toEqual(['This code has already been used. Wait for the next one.']);
    const older = await b.post('/auth/two-factor', { code: codeAt(secret, -STEP) });
    expect(older.statusCode).toBe(422);
    expect(b.cookies.has('drive_session')).toBe(false);
  });

  it('one code, two racing requests: one session', async () => {
    const { user, secret } = await userWithTotp();
    const a = new TestClient(t.app);
    const b = new TestClient(t.app);
    await firstStep(a, user.email, user.password);
    await firstStep(b, user.email, user.password);
    await awayFromStepEnd();
    const code = codeAt(secret);
    const results = await Promise.all([a.post('/auth/two-factor', { code }), b.post('/auth/two-factor', { code })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422]);
  });

  it('throttles codes like passwords: counted before they are compared, so parallel guesses cannot outrun it', async () => {
    const { user, secret } = await userWithTotp();
    const client = new TestClient(t.app);
    client.remoteAddress = '10.9.9.9';
    await firstStep(client, user.email, user.password);
    const guesses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.post('/auth/two-factor', { code: String(100000 + i) === codeAt(secret) ? '999999' : String(100000 + i) })),
    );
    expect(guesses.filter((r) => r.statusCode === 422)).toHaveLength(5);
    const limited = guesses.filter((r) => r.statusCode === 429);
    expect(limited).toHaveLength(3);
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right code waits for the window to end.
    await awayFromStepEnd();
    expect((await client.post('/auth/two-factor', { code: codeAt(secret) })).statusCode).toBe(429);
  });

  it('a challenge that has expired starts nothing', async () => {
    const { user, secret } = await userWithTotp();
    const client = new TestClient(t.app);
    await firstStep(client, user.email, user.password);
    await servicesOf(t.app)
      .db.kysely.updateTable('sign_in_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.id)
      .execute();
    await awayFromStepEnd();
    const res = await client.post('/auth/two-factor', { code: codeAt(secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Your sign-in has expired. Please sign in again.');
    expect((await new TestClient(t.app).post('/auth/two-factor', { code: codeAt(secret) })).statusCode).toBe(401);
  });

  it('a recovery code signs in once; lower case and without the dash is the same code', async () => {
    const { user, recoveryCodes } = await userWithTotp();
    const [first, second] = recoveryCodes as [string, string];
    const a = new TestClient(t.app);
    await firstStep(a, user.email, user.password);
    const used = await a.post('/auth/two-factor', { method: 'recovery_code', code: first.toLowerCase().replace('-', '') });
    expect(used.statusCode, used.body).toBe(200);

    const b = new TestClient(t.app);
    await firstStep(b, user.email, user.password);
    const again = await b.post('/auth/two-factor', { method: 'recovery_code', code: first });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.recovery_code).toEqual(['This recovery code is invalid or has already been used.']);
    expect((await b.post('/auth/two-factor', { method: 'recovery_code', code: second })).statusCode).toBe(200);
    const status = await b.get('/api/v1/user/two-factor');
    expect(status.json().recovery_codes_left).toBe(8);
  });

  it('regenerating replaces every recovery code; it needs a current code', async () => {
    const { user, secret, recoveryCodes } = await userWithTotp();
    const client = new TestClient(t.app);
    await firstStep(client, user.email, user.password);
    await client.post('/auth/two-factor', { method: 'recovery_code', code: recoveryCodes[0] });
    expect((await client.post('/api/v1/user/two-factor/recovery-codes', { code: '12345' })).statusCode).toBe(422);
    await awayFromStepEnd();
    const fresh = await client.post('/api/v1/user/two-factor/recovery-codes', { code: codeAt(secret) });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const codes: string[] = fresh.json().recovery_codes;
    expect(codes).toHaveLength(10);
    const other = new TestClient(t.app);
    await firstStep(other, user.email, user.password);
    expect((await other.post('/auth/two-factor', { method: 'recovery_code', code: recoveryCodes[1] })).statusCode).toBe(422);
    expect((await other.post('/auth/two-factor', { method: 'recovery_code', code: codes[0] })).statusCode).toBe(200);
  });

  it('turning it off needs the password and a code; then the password alone signs in again', async () => {
    const { user, secret, recoveryCodes } = await userWithTotp();
    const client = new TestClient(t.app);
    await firstStep(client, user.email, user.password);
    await client.post('/auth/two-factor', { method: 'recovery_code', code: recoveryCodes[0] });
    await awayFromStepEnd();
    const noPassword = await client.request('DELETE', '/api/v1/user/two-factor', { body: { code: codeAt(secret) } });
    expect(noPassword.statusCode).toBe(422);
    expect(noPassword.json().errors.current_password).toBeDefined();
    const badPassword = await client.request('DELETE', '/api/v1/user/two-factor', { body: { code: codeAt(secret), current_password: 'nope' } });
    expect(badPassword.statusCode).toBe(422);
    const badCode = await client.request('DELETE', '/api/v1/user/two-factor', { body: { code: '00000', current_password: user.password } });
    expect(badCode.statusCode).toBe(422);
    expect(badCode.json().errors.code).toBeDefined();
    const off = await client.request('DELETE', '/api/v1/user/two-factor', { body: { code: codeAt(secret), current_password: user.password } });
    expect(off.statusCode, off.body).toBe(200);
    expect((await client.get('/api/v1/user/two-factor')).json()).toEqual({ totp: false, recovery_codes_left: 0, has_password: true });
    const again = await new TestClient(t.app).login(user.email, user.password);
    expect(again.json().two_factor).toBeUndefined();
    expect(again.json().bootstrapData.user.id).toBe(user.id);
  });

  it('"remember this device": the next sign-in from this browser skips the second step, another browser does not', async () => {
    const { user, secret } = await userWithTotp();
    const client = new TestClient(t.app);
    await firstStep(client, user.email, user.password);
    await awayFromStepEnd();
    const second = await client.post('/auth/two-factor', { code: codeAt(secret), remember_device: true });
    expect(second.statusCode).toBe(200);
    const device = second.cookies.find((c) => c.name === 'drive_device') as { maxAge?: number; httpOnly?: boolean } | undefined;
    expect(device?.maxAge).toBe(30 * 24 * 60 * 60);
    expect(device?.httpOnly).toBe(true);
    await client.post('/auth/logout');
    const again = await client.login(user.email, user.password);
    expect(again.json().two_factor).toBeUndefined();
    expect(again.json().bootstrapData.user.id).toBe(user.id);
    // The device is trusted for this account only.
    const other = await createUser(servicesOf(t.app).db.kysely);
    const otherClient = new TestClient(t.app);
    await otherClient.login(other.email, other.password);
    await enableTotp(otherClient);
    await otherClient.post('/auth/logout');
    otherClient.cookies.set('drive_device', client.cookies.get('drive_device')!);
    expect((await otherClient.login(other.email, other.password)).json().two_factor).toBeDefined();
    expect((await new TestClient(t.app).login(user.email, user.password)).json().two_factor).toBeDefined();
  });

  it('every way in but "sign in as" meets the second step (AuthService.startSession)', async () => {
    const { user } = await userWithTotp();
    const meta = { ip: '127.0.0.1', userAgent: null };
    expect((await servicesOf(t.app).auth.auth.startSession({ kind: 'social', userId: user.id }, meta)).kind).toBe('second-factor');
    expect((await servicesOf(t.app).auth.auth.startSession({ kind: 'registration', userId: user.id }, meta)).kind).toBe('second-factor');
    expect((await servicesOf(t.app).auth.auth.startSession({ kind: 'password', email: user.email, password: user.password }, meta)).kind).toBe('second-factor');
    const admin = await createUser(servicesOf(t.app).db.kysely, { roles: ['admin'] });
    const started = await servicesOf(t.app).auth.auth.startSession({ kind: 'impersonation', userId: user.id, impersonatorId: admin.id }, meta);
    expect(started.kind).toBe('session');
  });

  it('a suspended account gets no session from its second step', async () => {
    const { user, secret } = await userWithTotp();
    const client = new TestClient(t.app);
    await firstStep(client, user.email, user.password);
    await servicesOf(t.app).db.kysely.updateTable('users').set({ suspended_at: new Date().toISOString() }).where('id', '=', user.id).execute();
    await awayFromStepEnd();
    expect((await client.post('/auth/two-factor', { code: codeAt(secret) })).statusCode).toBe(409);
    expect(client.cookies.has('drive_session')).toBe(false);
  });

  describe('the account routes: 401, 403, 404', () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/v1/user/two-factor'],
      ['POST', '/api/v1/user/two-factor/totp'],
      ['POST', '/api/v1/user/two-factor/totp/confirm', { code: '123456' }],
      ['POST', '/api/v1/user/two-factor/recovery-codes', { code: '123456' }],
      ['DELETE', '/api/v1/user/two-factor', { code: '123456', current_password: 'x' }],
    ];

    it('401 for a guest', async () => {
      const guest = new TestClient(t.app);
      for (const [method, url, body] of routes) {
        const res = await guest.request(method as 'GET', url, { body });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    });

    it('403 with a personal access token and while signed in as someone else', async () => {
      const user = await createUser(servicesOf(t.app).db.kysely);
      const { token } = await servicesOf(t.app).auth.accessTokens.create(user.id, 'cli');
      const api = new TestClient(t.app);
      api.bearer = token;
      for (const [method, url, body] of routes) {
        const res = await api.request(method as 'GET', url, { body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
      const admin = await createUser(servicesOf(t.app).db.kysely, { roles: ['admin'] });
      const adminClient = new TestClient(t.app);
      await adminClient.login(admin.email, admin.password);
      expect((await adminClient.post(`/api/v1/admin/users/${user.id}/impersonate`, { current_password: admin.password })).statusCode).toBe(200);
      for (const [method, url, body] of routes) {
        const res = await adminClient.request(method as 'GET', url, { body });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
      }
    });

    it('404 confirming a setup that was never started; 409 regenerating or turning off what is off', async () => {
      const user = await createUser(servicesOf(t.app).db.kysely);
      const client = new TestClient(t.app);
      await client.login(user.email, user.password);
      const res = await client.post('/api/v1/user/two-factor/totp/confirm', { code: '123456' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Start setting up the authenticator app first.');
      expect((await client.post('/api/v1/user/two-factor/recovery-codes', { code: '123456' })).statusCode).toBe(409);
      expect((await client.request('DELETE', '/api/v1/user/two-factor', { body: { code: '123456', current_password: user.password } })).statusCode).toBe(409);
    });

    it('401 for the second step without a sign-in in progress, 403 without the XSRF header', async () => {
      expect((await new TestClient(t.app).post('/auth/two-factor', { code: '123456' })).statusCode).toBe(401);
      const noXsrf = new TestClient(t.app);
      await noXsrf.get('/api/v1/health');
      noXsrf.xsrf = false;
      expect((await noXsrf.post('/auth/two-factor', { code: '123456' })).statusCode).toBe(403);
    });
  });
});
