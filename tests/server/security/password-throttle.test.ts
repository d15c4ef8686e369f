import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** Issue 10 finding 2: every password check is counted before it runs, so parallel guesses cannot pass a check-then-count. */
describe('password checks are throttled atomically', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('30 parallel wrong passwords for one account: only 5 are checked, the rest get 429 with Retry-After', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    client.remoteAddress = '10.0.0.1';
    await client.get('/api/v1/health');
    const answers = await Promise.all(Array.from({ length: 30 }, () => client.post('/auth/login', { email: user.email, password: 'wrong guess' })));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 422)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(25);
    const refused = answers.find((r) => r.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toMatch(/Too many attempts/);
    // The right password is refused too while the window lasts: the guard runs before the check.
    expect((await client.post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(429);
    // Another client is not held back by this one's guesses.
    const elsewhere = new TestClient(t.app);
    elsewhere.remoteAddress = '10.0.0.9';
    expect((await elsewhere.post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
  });

  it('a right password clears its own failures, so an owner who mistyped is not held back', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    client.remoteAddress = '10.0.0.2';
    for (let i = 0; i < 4; i += 1) expect((await client.post('/auth/login', { email: user.email, password: 'typo' })).statusCode).toBe(422);
    expect((await client.post('/auth/login', { email: user.email, password: user.password })).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) expect((await client.post('/auth/login', { email: user.email, password: 'typo' })).statusCode).toBe(422);
  });

  it('the current password of a password change is throttled the same way', async () => {
    const { client } = await signedInUser(t.app);
    client.remoteAddress = '10.0.0.3';
    const tries = await Promise.all(
      Array.from({ length: 8 }, () =>
        client.post('/api/v1/users/me/password/change', {
          current_password: 'nope',
          new_password: 'a new long password',
          new_password_confirmation: 'a new long password',
        }),
      ),
    );
    const codes = tries.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 422)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(3);
  });
});
