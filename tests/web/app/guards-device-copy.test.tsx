import { onlineManager } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { Bootstrap } from '../../../src/api/bootstrap-types';
import { createQueryClient } from '../../../src/api/query-client';
import { queryKeys } from '../../../src/api/query-keys';
import { Providers } from '../../../src/app/Providers';
import { routes } from '../../../src/app/routes';
import { flushPersistedCache } from '../../../src/offline/persister';
import { makeBootstrap, makeUser } from '../fixtures';
import { loadRoutes } from '../render-app';

// The installed app opens /login from the service worker's shell: no bootstrap data in the page, only the copy the
// device saved on an earlier page, and the server's answer on its way. The copy may be of a session that has ended
// since (signed out in another tab, cookies cleared, expired). The e2e suite's two-factor test lost its typed email
// this way: a redirect to /drive decided on the copy landed after the answer, and /drive sent it back to a new form.

const BUSTER = 'v1';

/** The copy an earlier page saved on this device (fetched before this page began). */
function savedOnDevice(data: Bootstrap): void {
  const earlier = createQueryClient();
  earlier.setQueryData(queryKeys.bootstrap, data, { updatedAt: performance.timeOrigin - 60_000 });
  flushPersistedCache(earlier, BUSTER);
}

/** The server's answer to the bootstrap request, given when the test says; every other request stays unanswered. */
function bootstrapAnswer() {
  let answer: (data: Bootstrap) => void = () => undefined;
  const answered = new Promise<Bootstrap>((resolve) => (answer = resolve));
  vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.includes('/api/v1/bootstrap-data')) return new Promise<Response>(() => undefined);
    return answered.then((data) => new Response(JSON.stringify({ data }), { headers: { 'content-type': 'application/json' } }));
  });
  return (data: Bootstrap) => act(() => answer(data));
}

function openApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  /** The addresses the app went to after `path`. */
  const visited: string[] = [];
  router.subscribe(({ location }) => {
    const address = `${location.pathname}${location.search}`;
    if (address !== (visited.at(-1) ?? path)) visited.push(address);
  });
  render(
    <Providers client={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, visited };
}

const signedIn = () => makeBootstrap({ user: makeUser() });

beforeAll(() => loadRoutes('/login', '/drive', '/account-settings'), 60_000);

describe('guards over the device’s copy of the bootstrap data', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('keeps the sign-in form, and what was typed, when the copy says signed in and the server says the session ended', async () => {
    savedOnDevice(signedIn());
    const answer = bootstrapAnswer();
    const { router, visited } = openApp('/login');
    const email = await screen.findByLabelText<HTMLInputElement>('Email');
    fireEvent.change(email, { target: { value: 'ada@example.com' } });
    await answer(makeBootstrap());
    // Everything the router would still do has had its chance (a redirect in flight, its screen's code, the way back).
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(visited).toEqual([]);
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('');
    expect(screen.getByLabelText<HTMLInputElement>('Email')).toBe(email);
    expect(email.value).toBe('ada@example.com');
  });

  it('goes on to the drive once the server confirms the copy’s session', async () => {
    savedOnDevice(signedIn());
    const answer = bootstrapAnswer();
    const { router } = openApp('/login');
    await screen.findByLabelText('Email');
    expect(router.state.location.pathname).toBe('/login');
    await answer(signedIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/drive'));
  });

  it('keeps a signed-in screen when the copy says signed out and the server says signed in (a sign-in in another tab)', async () => {
    savedOnDevice(makeBootstrap());
    const answer = bootstrapAnswer();
    const { router, visited } = openApp('/account-settings');
    expect(await screen.findByRole('progressbar')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/account-settings');
    await answer(signedIn());
    expect(await screen.findByRole('heading', { name: 'Account settings' })).toBeTruthy();
    expect(visited).toEqual([]);
  });

  it('acts on the copy when no answer can come (offline)', async () => {
    onlineManager.setOnline(false);
    onTestFinished(() => onlineManager.setOnline(true));
    savedOnDevice(signedIn());
    bootstrapAnswer();
    const { router } = openApp('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/drive'));
  });
});
