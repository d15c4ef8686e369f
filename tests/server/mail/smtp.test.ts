import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../support/client.js';
import { createUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { servicesOf } from '../support/services-handle.js';

/** A real SMTP peer (smtp-server) stands in for the mail provider. */
describe('mail over SMTP (MAIL_URL)', () => {
  let t: TestApp;
  let smtp: SMTPServer;
  const received: { to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    t = await createTestApp({ env: { MAIL_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Drive <drive@example.com>' } });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('sends the reset link to the account’s address and writes no file', async () => {
    const user = await createUser(servicesOf(t.app).db.kysely);
    const res = await new TestClient(t.app).post('/auth/forgot-password', { email: user.email });
    expect(res.statusCode).toBe(200);
    await servicesOf(t.app).jobs.idle();
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual([user.email]);
    expect(received[0]!.raw).toMatch(/^From: Drive <drive@example\.com>/m);
    expect(received[0]!.raw.replace(/=\r?\n/g, '')).toContain('/password/reset/');
    const { mailsTo } = await import('../support/mail.js');
    expect(await mailsTo(t.dataDir, user.email)).toHaveLength(0);
  });
});
