import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bootstrap } from '../../../src/api/bootstrap-types';
import { queryKeys } from '../../../src/api/query-keys';
import { readOnboardingSelection, saveOnboardingSelection } from '../../../src/app/landing';
import { makeBootstrap } from '../fixtures';
import { renderApp } from '../render-app';

// The screens' code loads lazily, and its first import (transformed cold) can outlast findBy's wait on a busy
// machine: load it once beforehand, so each test waits only for what it is about, whichever runs first.
beforeAll(async () => {
  await Promise.all([import('../../../src/features/auth/LoginPage'), import('../../../src/features/auth/RegisterPage')]);
});

// The page's value lists are not under test: answer them from the cache.
const renderAt = (path: string, data: Bootstrap) => renderApp(path, data, [[queryKeys.valueLists('countries'), { countries: [] }]]);

const policies = [
  { id: 'terms', label: 'Terms of Service', action: '/pages/terms', type: 'route' as const },
  { id: 'privacy', label: 'Privacy Policy', action: 'https://example.com/privacy', type: 'link' as const },
];

describe('registration screen', () => {
  it('redirects to /login when registration is disabled', async () => {
    const router = renderAt('/register', makeBootstrap({ registration: { disable: true, policies } }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(screen.queryByRole('link', { name: "Don't have an account? Sign up" })).toBeNull();
  });

  it('keeps the plan a pricing link carries, for the checkout after registration (the link works before the app runs)', async () => {
    saveOnboardingSelection(null);
    renderAt('/register?redirectFrom=pricing&product=2&price=7', makeBootstrap({ registration: { disable: false, policies } }));
    await screen.findByRole('checkbox', { name: 'I accept the Terms of Service' });
    await waitFor(() => expect(readOnboardingSelection()).toEqual({ productId: '2', priceId: '7' }));
    saveOnboardingSelection(null);
  });

  it('shows one required checkbox per policy, linking to the policy', async () => {
    renderAt('/register', makeBootstrap({ registration: { disable: false, policies } }));
    const terms = await screen.findByRole('checkbox', { name: 'I accept the Terms of Service' });
    expect(terms.hasAttribute('required')).toBe(true);
    expect(screen.getByRole('checkbox', { name: 'I accept the Privacy Policy' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/pages/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('https://example.com/privacy');
  });

  it('pre-fills and locks the invited email and names, with the workspace heading', async () => {
    renderAt('/workspace/join/register?email=ada%40example.com&first_name=Ada&last_name=Byron', makeBootstrap());
    expect(await screen.findByRole('heading', { name: 'To join your team on Drive, create an account' })).toBeTruthy();
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    expect(email.value).toBe('ada@example.com');
    expect(email.readOnly).toBe(true);
    expect((screen.getByLabelText('First name') as HTMLInputElement).readOnly).toBe(true);
    expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe('Byron');
  });
});

describe('sign-in screen', () => {
  it('locks a given email, fills demo credentials otherwise, and hides sign-up when registration is closed', async () => {
    renderAt('/login?email=bob%40example.com', makeBootstrap({ registration: { disable: true, policies: [] } }));
    const email = (await screen.findByLabelText('Email')) as HTMLInputElement;
    expect(email.value).toBe('bob@example.com');
    expect(email.readOnly).toBe(true);
    expect(screen.queryByRole('link', { name: "Don't have an account? Sign up" })).toBeNull();
    expect(screen.getByRole('link', { name: 'Forgot Password? Recover' })).toBeTruthy();
  });

  it('pre-fills demo credentials in demo mode', async () => {
    renderAt(
      '/login',
      makeBootstrap({ site: { demo: true }, demo: { loginPageDefaults: 'singleAccount', credentials: { email: 'admin@demo.test', password: 'admin' } } }),
    );
    expect(((await screen.findByLabelText('Email')) as HTMLInputElement).value).toBe('admin@demo.test');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('admin');
    expect(screen.getByRole('link', { name: "Don't have an account? Sign up" })).toBeTruthy();
  });
});

describe('a provider’s sign-in that must set up two-factor first (issue 36)', () => {
  for (const path of ['/login', '/register']) {
    it(`shows the set-up step on ${path}, not the app`, async () => {
      const router = renderAt(path, makeBootstrap({ registration: { disable: false, policies: [] } }));
      await screen.findByRole('heading', { level: 1 });
      window.dispatchEvent(
        new MessageEvent('message', {
          origin: window.location.origin,
          data: { type: 'social-auth', status: 'SUCCESS', callbackData: { bootstrapData: makeBootstrap({ user: null }), two_factor_setup: true } },
        }),
      );
      expect(await screen.findByRole('heading', { name: 'Set up two-factor sign-in' })).toBeTruthy();
      expect(router.state.location.pathname).toBe(path);
    });
  }
});

describe('a reloaded page during that set-up (issue 36)', () => {
  it('goes back to the set-up step when the bootstrap data says it is pending', async () => {
    renderAt('/login', makeBootstrap({ user: null, two_factor_setup: true }));
    expect(await screen.findByRole('heading', { name: 'Set up two-factor sign-in' })).toBeTruthy();
  });
});
