import { cleanup, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeBootstrap, makeUser } from './fixtures';
import { loadRoutes, renderApp } from './render-app';
// The sign-in form loads its schema on demand (lazyResolver): here it is loaded with the test's modules, so a
// submit does not wait for the test runner to compile zod.
import '../../src/features/auth/login-schema';

const signedIn = (overrides: Parameters<typeof makeUser>[0] = {}) => makeBootstrap({ user: makeUser(overrides) });

// The screens' code first, so no test's waits include compiling it (a hook's work, with a hook's time).
beforeAll(
  () =>
    loadRoutes(
      '/login',
      '/register',
      '/workspace/join/login',
      '/drive',
      '/drive/s/abc',
      '/checkout/1/2',
      '/admin/users',
      '/account-settings',
      '/notifications',
      '/no/such/place',
    ),
  60_000,
);

describe('route guards', () => {
  beforeEach(() => localStorage.clear());

  it('sends a guest from /drive to /login, keeping the target', async () => {
    const router = renderApp('/drive/folders/abc', makeBootstrap());
    await screen.findByRole('button', { name: 'Continue' });
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/drive/folders/abc');
  });

  it('opens a share link for a guest without asking them to sign in', async () => {
    const link = {
      token: 'abc',
      requires_password: false,
      allow_download: true,
      file_drop: false,
      expires_at: null,
      downloads_left: null,
      owner_name: 'Dora Drive',
      entry: {
        id: 'h1',
        hash: 'h1',
        name: 'minutes.bin',
        type: 'file',
        mime: 'application/octet-stream',
        extension: 'bin',
        file_size: 2048,
        parent_id: null,
        url: '/api/v1/shared-links/abc/preview/h1',
        thumbnail_url: null,
        created_at: '2026-11-25T08:00:00.000Z',
        updated_at: '2026-11-25T08:00:00.000Z',
        permissions: ['files.view', 'files.download'],
      },
    };
    const router = renderApp('/drive/s/abc', makeBootstrap(), [[['shared-link', 'abc'], link]]);
    expect(await screen.findByRole('heading', { name: 'minutes.bin' })).toBeTruthy();
    expect(screen.getByText('Shared by Dora Drive')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download (2 KB)' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/drive/s/abc');
  });

  it('sends a signed-in user from /login to the landing path', async () => {
    const router = renderApp('/login', signedIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/drive'));
    expect(await screen.findByRole('heading', { name: 'Drive' })).toBeTruthy();
  });

  it('sends a signed-in user following an invite link on to its own target, never off-site', async () => {
    const router = renderApp(`/workspace/join/login?email=a%40b.c&redirect=${encodeURIComponent('/drive?invite=abc')}`, signedIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/drive'));
    expect(router.state.location.search).toBe('?invite=abc');
    const offsite = renderApp(`/login?redirect=${encodeURIComponent('//evil.example/x')}`, signedIn());
    await waitFor(() => expect(offsite.state.location.pathname).toBe('/drive'));
  });

  it('lands on checkout when an onboarding selection is saved', async () => {
    localStorage.setItem('be-onboarding-selection', JSON.stringify({ productId: 1, priceId: 2 }));
    const router = renderApp('/register', signedIn());
    await waitFor(() => expect(router.state.location.pathname).toBe('/checkout/1/2'));
  });

  it('requires admin.access for /admin', async () => {
    const router = renderApp('/admin', signedIn());
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/admin'));
    // That visit is over: the admin's app is the only one on the page (not another drive, busy under it).
    cleanup();

    renderApp('/admin/users', signedIn({ permissions: [{ name: 'admin', restrictions: [] }] }));
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeTruthy();
  });

  it('shows only the verify-email screen while the email is unverified', async () => {
    const data = signedIn({ email_verified_at: null });
    renderApp('/account-settings', { ...data, settings: { ...data.settings, require_email_confirmation: true } });
    expect(await screen.findByRole('button', { name: 'request a new verification email' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Account settings' })).toBeNull();
  });
});

describe('404 page', () => {
  it('answers unknown paths with the doorway title and a home button', async () => {
    renderApp('/no/such/place', makeBootstrap());
    expect(await screen.findByRole('heading', { name: "Looks like you've found the doorway to the great nothing" })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Take me there!' }).getAttribute('href')).toBe('/');
  });

  it('treats notification routes as unknown when notifications are not integrated', async () => {
    const data = signedIn();
    renderApp('/notifications', { ...data, notifications: { integrated: false, subscriptions: { integrated: false } } });
    expect(await screen.findByText('Take me there!')).toBeTruthy();
  });
});
