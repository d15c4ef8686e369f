import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestClient } from '../support/client.js';
import { signedInUser } from '../support/drive-factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createWorkspace, workspaceRoles } from '../workspaces/support.js';
import { servicesOf } from '../support/services-handle.js';

const decodeQuotedPrintable = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP peer that accepts each message only when `release()` is called: a mail provider as slow as it gets. */
async function startSmtp(port = 0, hold = false) {
  const received: Received[] = [];
  const held: (() => void)[] = [];
  let holding = hold;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const accept = () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: decodeQuotedPrintable(raw) });
          callback();
        };
        if (holding) held.push(accept);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    server,
    received,
    port: (server.server.address() as AddressInfo).port,
    held: () => held.length,
    release() {
      holding = false;
      for (const accept of held.splice(0)) accept();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const waitFor = async (done: () => boolean) => {
  for (const deadline = Date.now() + 10_000; !done();) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * Account and invite mails go through the job queue: the request answers as
 * it always did, whatever the mail server does, and the job delivers the
 * mail (retrying while the server is down).
 */
describe('mail a request causes is sent by a job, not inside the request', () => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    smtp = await startSmtp(0, true);
    t = await createTestApp({ env: { MAIL_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Drive <drive@example.com>' } });
    await servicesOf(t.app).settings.set({ require_email_confirmation: true });
  });
  afterAll(async () => {
    smtp.release();
    await t.close();
    await smtp.close();
  });

  it('answers sign-up, reset, verification, email change and invite requests while the mail server has not taken their mail', async () => {
    const registered = await new TestClient(t.app).post('/auth/register', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'queued-new@example.com',
      password: 'analytical engine',
      password_confirmation: 'analytical engine',
      terms: true,
      privacy: true,
    });
    expect(registered.statusCode).toBe(200);
    expect(registered.json().status).toBe('needs_email_verification');

    const { user, client } = await signedInUser(t.app);
    const forgot = await new TestClient(t.app).post('/auth/forgot-password', { email: user.email });
    expect(forgot.statusCode).toBe(200);
    expect(forgot.json()).toEqual({ message: 'If an account exists for this email, we have sent a password reset link to it.' });

    const resent = await new TestClient(t.app).post('/auth/email/verification-notification', { email: 'queued-new@example.com' });
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual({ message: 'Email sent' });

    const changed = await client.request('PUT', '/api/v1/users/me', { body: { email: 'queued-changed@example.com', current_password: user.password } });
    expect(changed.statusCode).toBe(200);

    const owner = await signedInUser(t.app);
    const workspace = await createWorkspace(owner.client);
    const invited = await owner.client.post(`/api/v1/workspace/${workspace}/invite`, {
      emails: ['queued-invitee@example.com'],
      roleId: (await workspaceRoles(owner.client)).viewer,
    });
    expect(invited.statusCode).toBe(200);
    expect(invited.json().message).toBe('Invite sent');

    // Every answer came while the server still held every message.
    expect(smtp.received).toEqual([]);
    smtp.release();
    await servicesOf(t.app).jobs.idle();
    const to = (address: string) => smtp.received.filter((mail) => mail.to.includes(address)).map((mail) => mail.raw);
    expect(to('queued-new@example.com')).toHaveLength(2);
    expect(to('queued-new@example.com').every((raw) => raw.includes('/auth/email/verify?token='))).toBe(true);
    expect(to(user.email)).toHaveLength(2);
    expect(to(user.email).some((raw) => raw.includes('/password/reset/'))).toBe(true);
    expect(to(user.email).some((raw) => raw.includes('was changed to queued-changed@example.com'))).toBe(true);
    expect(to('queued-changed@example.com')).toHaveLength(1);
    expect(to('queued-changed@example.com')[0]).toContain('/auth/email/verify?token=');
    expect(to('queued-invitee@example.com')).toHaveLength(1);
    expect(to('queued-invitee@example.com')[0]).toContain('/workspace/join/register?');
  });

  it('answers while the mail server is down, and the job delivers the mail once it is back', async () => {
    const port = await freePort();
    await servicesOf(t.app).settings.set({ 'mail.url': `smtp://127.0.0.1:${port}` });
    let later: Awaited<ReturnType<typeof startSmtp>> | undefined;
    const sends = vi.spyOn(servicesOf(t.app).mailer, 'send');
    try {
      const { user } = await signedInUser(t.app);
      const forgot = await new TestClient(t.app).post('/auth/forgot-password', { email: user.email });
      expect(forgot.statusCode).toBe(200);
      expect(forgot.json()).toEqual({ message: 'If an account exists for this email, we have sent a password reset link to it.' });
      // The first try is refused; the queue tries again after a pause, by when the server is back.
      await waitFor(() => sends.mock.settledResults[0]?.type === 'rejected');
      later = await startSmtp(port);
      await waitFor(() => later!.received.length > 0);
      await servicesOf(t.app).jobs.idle();
      expect(later.received).toHaveLength(1);
      expect(later.received[0]!.to).toEqual([user.email]);
      expect(later.received[0]!.raw).toContain('/password/reset/');
      expect(sends.mock.calls.length).toBeGreaterThan(1);
    } finally {
      sends.mockRestore();
      await servicesOf(t.app).settings.set({ 'mail.url': '' });
      await later?.close();
    }
  });
});
