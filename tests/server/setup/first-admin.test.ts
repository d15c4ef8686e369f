import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, ensureFirstAdmin } from '../../../server/modules/setup/first-admin.js';
import { TestClient } from '../support/client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

describe('first admin account', () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  it('generates a strong password, returns it once and stores only its argon2id hash', async () => {
    t = await createTestApp();
    const created = await ensureFirstAdmin(servicesOf(t.app).db.kysely, { email: undefined, password: undefined });
    expect(created?.email).toBe(DEFAULT_ADMIN_EMAIL);
    expect(created?.generatedPassword).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const row = await servicesOf(t.app).db.kysely.selectFrom('users').select('password').where('email', '=', DEFAULT_ADMIN_EMAIL).executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$/);
    expect(row.password).not.toContain(created!.generatedPassword!);

    const client = new TestClient(t.app);
    await client.login(DEFAULT_ADMIN_EMAIL, created!.generatedPassword!);
    const { data } = (await client.get('/api/v1/bootstrap-data')).json();
    expect(data.user.permissions.map((p: { name: string }) => p.name)).toContain('admin');
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when given, and does nothing once an admin exists', async () => {
    t = await createTestApp();
    const db = servicesOf(t.app).db.kysely;
    const first = await ensureFirstAdmin(db, { email: 'Boss@Example.com', password: 'given password' });
    expect(first).toEqual({ email: 'boss@example.com', generatedPassword: null });
    expect(await ensureFirstAdmin(db, { email: 'other@example.com', password: undefined })).toBeNull();
    const users = await db.selectFrom('users').select('email').execute();
    expect(users).toEqual([{ email: 'boss@example.com' }]);
    await new TestClient(t.app).login('boss@example.com', 'given password');
  });
});
