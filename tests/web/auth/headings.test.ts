import { describe, expect, it } from 'vitest';
import { loginHeading, registerHeading } from '../../../src/features/auth/headings';
import { demoCredentials } from '../../../src/features/auth/demo';
import { showSocialButtons, enabledSocialServices } from '../../../src/features/auth/SocialButtons';
import { makeBootstrap } from '../fixtures';

describe('auth headings', () => {
  it('login: the workspace variant under a workspace path', () => {
    expect(loginHeading('/login')).toBe('Sign in to your account');
    expect(loginHeading('/workspace/join/login')).toBe('To join your team on :siteName, login to your account');
  });

  it('register: workspace, then pricing, then the default', () => {
    const none = new URLSearchParams();
    const pricing = new URLSearchParams('redirectFrom=pricing');
    expect(registerHeading('/register', none)).toBe('Create a new account');
    expect(registerHeading('/register', pricing)).toBe("First, let's create your account");
    expect(registerHeading('/workspace/join/register', none)).toBe('To join your team on :siteName, create an account');
    expect(registerHeading('/workspace/join/register', pricing)).toBe('To join your team on :siteName, create an account');
  });
});

describe('social buttons rule', () => {
  const social = (google: boolean, facebook: boolean) => ({
    google: { enable: google },
    facebook: { enable: facebook },
    twitter: { enable: true },
  });

  it('shows only enabled providers, and only while registration is open', () => {
    expect(showSocialButtons(makeBootstrap({ social: social(false, false) }))).toBe(false);
    expect(showSocialButtons(makeBootstrap({ social: social(true, false) }))).toBe(true);
    expect(enabledSocialServices(makeBootstrap({ social: social(false, true) }))).toEqual(['facebook']);
    const closed = makeBootstrap({ social: social(true, true), registration: { disable: true, policies: [] } });
    expect(showSocialButtons(closed)).toBe(false);
  });
});

describe('demo credentials', () => {
  it('are read only in demo mode and only when well-formed', () => {
    const credentials = { email: 'admin@demo.test', password: 'admin' };
    expect(demoCredentials(makeBootstrap({ site: { demo: true }, demo: { loginPageDefaults: 'singleAccount', credentials } }))).toEqual(credentials);
    expect(demoCredentials(makeBootstrap({ site: { demo: false }, demo: { loginPageDefaults: 'singleAccount', credentials } }))).toBeNull();
    const older = { site: { demo: true }, demo: { loginPageDefaults: 'singleAccount' } } as unknown as Parameters<typeof demoCredentials>[0];
    expect(demoCredentials(older)).toBeNull();
    expect(demoCredentials(makeBootstrap({ site: { demo: true }, demo: { loginPageDefaults: 'singleAccount', credentials: null } }))).toBeNull();
  });
});
