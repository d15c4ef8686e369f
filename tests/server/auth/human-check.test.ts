import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** A local stand-in for the provider's siteverify endpoint: the token "human" passes. */
describe('human check on registration', () => {
  let t: TestApp;
  let provider: http.Server;
  const seen: URLSearchParams[] = [];

  beforeAll(async () => {
    provider = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        seen.push(form);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ success: form.get('response') === 'human' && form.get('secret') === 'server-secret' }));
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    t = await createTestApp();
    await servicesOf(t.app).settings.set({
      'recaptcha.site_key': 'site-key',
      'recaptcha.secret_key': 'server-secret',
      'recaptcha.verify_url': `http://127.0.0.1:${(provider.address() as AddressInfo).port}/siteverify`,
      'recaptcha.enable.register': true,
    });
  });
  afterAll(async () => {
    await t.close();
    provider.close();
  });

  const body = (email: string) => ({
    first_name: 'A',
    last_name: 'B',
    email,
    password: 'long enough pw',
    password_confirmation: 'long enough pw',
    terms: true,
    privacy: true,
  });

  it('refuses registration without a passed check, with the spec’s message', async () => {
    const res = await new TestClient(t.app).post('/auth/register', body('bot@example.com'));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ recaptcha: ['Could not verify you are human.'] });
  });

  it('answers success false for a token the provider rejects', async () => {
    const res = await new TestClient(t.app).post('/api/v1/recaptcha/verify', { token: 'robot' });
    expect(res.json()).toEqual({ success: false });
  });

  it('lets the browser register after the provider accepts its token', async () => {
    const client = new TestClient(t.app);
    expect((await client.post('/api/v1/recaptcha/verify', { token: 'human' })).json()).toEqual({ success: true });
    expect(seen.at(-1)?.get('secret')).toBe('server-secret');
    const res = await client.post('/auth/register', body('person@example.com'));
    expect(res.statusCode).toBe(200);
  });

  it('does not accept a forged check cookie', async () => {
    const client = new TestClient(t.app);
    client.cookies.set('human_check', 'aHVtYW4.99999999999999.forged');
    expect((await client.post('/auth/register', body('forger@example.com'))).statusCode).toBe(422);
  });
});
