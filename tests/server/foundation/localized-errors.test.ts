import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trLines } from '../../../server/modules/localizations/lines/tr.js';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** Errors answer in the caller's language: the user's, else the visitor's cookie, else the site default. */
describe('error messages in the caller’s language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const turkishVisitor = async () => {
    const client = new TestClient(t.app);
    await client.post('/api/v1/users/me/locale', { locale: 'tr' });
    return client;
  };

  it('translates validation templates and the field’s name', async () => {
    const res = await (await turkishVisitor()).post('/auth/login', { email: 'not-an-email' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      email: ['E-posta alanı geçerli bir e-posta adresi olmalıdır.'],
      password: ['Şifre alanı zorunludur.'],
    });
    expect(res.json().message).toBe('E-posta alanı geçerli bir e-posta adresi olmalıdır. (ve 1 hata daha)');
  });

  it('translates the catalogue’s messages, with their values', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = await turkishVisitor();
    const wrong = await client.post('/auth/login', { email: user.email, password: 'nope' });
    expect(wrong.json().errors).toEqual({ email: [trLines['These credentials do not match our records.']] });
    for (let i = 0; i < 4; i += 1) await client.post('/auth/login', { email: user.email, password: 'nope' });
    const throttled = await client.post('/auth/login', { email: user.email, password: 'nope' });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().message).toMatch(/^Çok fazla deneme\. Lütfen \d+ saniye sonra tekrar deneyin\.$/);
  });

  it('follows a signed-in user’s own language and keeps English for others', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    const english = await client.request('PUT', '/api/v1/users/me', { body: { timezone: 'Mars/Olympus' } });
    expect(english.json().errors).toEqual({ timezone: ['The selected timezone is invalid.'] });
    await client.post('/api/v1/users/me/locale', { locale: 'tr' });
    const turkish = await client.request('PUT', '/api/v1/users/me', { body: { timezone: 'Mars/Olympus' } });
    expect(turkish.json().errors).toEqual({ timezone: ['Seçilen saat dilimi geçersiz.'] });
  });

  it('answers the forgot-password message in the visitor’s language', async () => {
    const res = await (await turkishVisitor()).post('/auth/forgot-password', { email: 'anyone@example.com' });
    expect(res.json().message).toBe(trLines['If an account exists for this email, we have sent a password reset link to it.']);
  });
});
