import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TwoFactorSection } from '../../../src/features/account/TwoFactorSection';
import { makeBootstrap, makeUser } from '../fixtures';
import { renderAdmin, type SentCall } from '../admin/render-admin';
import { renderApp } from '../render-app';
// The sign-in form loads its schema on demand (lazyResolver): here it is loaded with the test's modules, so a
// submit does not wait for the test runner to compile zod.
import '../../../src/features/auth/login-schema';

// Issue 36: the sign-in's second step and Account settings → Security.

beforeAll(async () => {
  await import('../../../src/features/auth/LoginPage');
});
afterEach(() => vi.unstubAllGlobals());

type Handler = (call: SentCall) => Response | undefined;

/** Answers the app's calls by "METHOD /path" and records them. */
function stubFetch(handler: Handler) {
  const calls: SentCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init);
    const url = new URL(request.url);
    const text = request.method === 'GET' ? '' : await request.clone().text();
    const method = request.headers.get('X-HTTP-Method-Override') ?? request.method;
    const call = { method, path: url.pathname, query: url.searchParams, body: text ? (JSON.parse(text) as unknown) : undefined };
    calls.push(call);
    return handler(call) ?? Response.json({ message: 'Not found.' }, { status: 404 });
  });
  return calls;
}

describe('sign-in second step', () => {
  it('asks for the code after the password, sends "remember this device", and only then goes on signed in', async () => {
    const guest = makeBootstrap();
    const signedIn = makeBootstrap({ user: makeUser({ id: 7 }) });
    let attempts = 0;
    const calls = stubFetch((call) => {
      if (call.path === '/auth/login') return Response.json({ bootstrapData: guest, two_factor: { methods: ['totp', 'recovery_code'] } });
      if (call.path === '/auth/two-factor') {
        attempts += 1;
        if (attempts === 1) return Response.json({ message: 'The code is invalid.', errors: { code: ['The code is invalid.'] } }, { status: 422 });
        return Response.json({ bootstrapData: signedIn });
      }
      return undefined;
    });
    const router = renderApp('/login?redirect=%2Fdrive', guest);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByRole('heading', { name: 'Two-factor sign-in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Remember this device for 30 days' }));
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is invalid.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');

    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    // Where the router is going (the drive's screen loads lazily), or already is.
    await waitFor(() => expect((router.state.navigation.location ?? router.state.location).pathname).toBe('/drive'));
    const sent = calls.filter((c) => c.path === '/auth/two-factor').map((c) => c.body);
    expect(sent).toEqual([
      { method: 'totp', code: '123456', remember_device: true },
      { method: 'totp', code: '654321', remember_device: true },
    ]);
  });

  it('takes a recovery code instead', async () => {
    const guest = makeBootstrap();
    const calls = stubFetch((call) => {
      if (call.path === '/auth/login') return Response.json({ bootstrapData: guest, two_factor: { methods: ['totp', 'recovery_code'] } });
      if (call.path === '/auth/two-factor') return Response.json({ bootstrapData: makeBootstrap({ user: makeUser() }) });
      return undefined;
    });
    renderApp('/login', guest);
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'ada@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'ABCDE-FGHJK' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/auth/two-factor')).toBe(true));
    expect(calls.find((c) => c.path === '/auth/two-factor')!.body).toEqual({ method: 'recovery_code', code: 'ABCDE-FGHJK', remember_device: false });
  });
});

describe('Account settings → Security', () => {
  it('sets up an authenticator app: QR code and key, first code, then the recovery codes once', async () => {
    let on = false;
    const { sent } = renderAdmin(<TwoFactorSection />, (call) => {
      const key = `${call.method} ${call.path}`;
      if (key === 'GET /api/v1/user/two-factor') return Response.json({ totp: on, recovery_codes_left: on ? 10 : 0, has_password: true });
      if (key === 'POST /api/v1/user/two-factor/totp')
        return Response.json({
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauth_url: 'otpauth://totp/Drive:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        });
      if (key === 'POST /api/v1/user/two-factor/totp/confirm') {
        on = true;
        return Response.json({ recovery_codes: ['AAAAA-BBBBB', 'CCCCC-DDDDD'] });
      }
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['AAAAA-BBBBB', 'CCCCC-DDDDD']);
    expect(sent('POST', '/api/v1/user/two-factor/totp/confirm')[0]!.body).toEqual({ code: '123456' });
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Two-factor sign-in is on.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    expect(screen.getByText('Recovery codes left: 10')).toBeTruthy();
  });

  it('turning off asks for the password and a code, and shows the server field errors', async () => {
    const { sent } = renderAdmin(<TwoFactorSection />, (call) => {
      const key = `${call.method} ${call.path}`;
      if (key === 'GET /api/v1/user/two-factor') return Response.json({ totp: true, recovery_codes_left: 3, has_password: true });
      if (key === 'DELETE /api/v1/user/two-factor')
        return Response.json(
          { message: 'The current password is incorrect.', errors: { current_password: ['The current password is incorrect.'] } },
          { status: 422 },
        );
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'nope' } });
    fireEvent.change(screen.getByLabelText('Code from the app'), { target: { value: '123456' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Turn off' }));
    });
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();
    expect(sent('DELETE', '/api/v1/user/two-factor')[0]!.body).toEqual({ method: 'totp', code: '123456', current_password: 'nope' });
  });

  it('an account without a password (social only) turns it off with a code alone', async () => {
    renderAdmin(<TwoFactorSection />, (call) =>
      call.path === '/api/v1/user/two-factor' && call.method === 'GET' ? Response.json({ totp: true, recovery_codes_left: 3, has_password: false }) : undefined,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off' }));
    expect(screen.queryByLabelText('Current password')).toBeNull();
    expect(screen.getByLabelText('Code from the app')).toBeTruthy();
  });
});
