import { describe, expect, it, vi } from 'vitest';
import { applySocialAuthOutcome, readSocialAuthMessage, SOCIAL_ERROR_FALLBACK, socialPopupUrl, openSocialPopup } from '../../../src/features/auth/social-auth';
import { makeBootstrap, makeUser } from '../fixtures';

const ORIGIN = 'https://drive.example';
const event = (data: unknown, origin = ORIGIN) => ({ data, origin });

describe('social-auth message handler', () => {
  it('ignores messages from other origins', () => {
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'ALREADY_LOGGED_IN' }, 'https://evil.example'), ORIGIN)).toBeNull();
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'ALREADY_LOGGED_IN' }, 'http://drive.example'), ORIGIN)).toBeNull();
  });

  it('ignores other message types and shapes', () => {
    expect(readSocialAuthMessage(event({ type: 'navigate', status: 'SUCCESS' }), ORIGIN)).toBeNull();
    expect(readSocialAuthMessage(event('social-auth'), ORIGIN)).toBeNull();
    expect(readSocialAuthMessage(event(null), ORIGIN)).toBeNull();
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'WHATEVER' }), ORIGIN)).toBeNull();
  });

  it('maps SUCCESS to signed-in with the bootstrap data', () => {
    const bootstrapData = makeBootstrap({ user: makeUser() });
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'SUCCESS', callbackData: { bootstrapData } }), ORIGIN)).toEqual({
      kind: 'signed-in',
      bootstrapData,
    });
  });

  it('treats SUCCESS without bootstrap data as an error', () => {
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'SUCCESS' }), ORIGIN)).toEqual({
      kind: 'error',
      message: SOCIAL_ERROR_FALLBACK,
    });
  });

  it('maps ALREADY_LOGGED_IN, REQUEST_PASSWORD and ERROR', () => {
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'ALREADY_LOGGED_IN' }), ORIGIN)).toEqual({ kind: 'already-signed-in' });
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'REQUEST_PASSWORD', callbackData: { email: 'ada@example.com' } }), ORIGIN)).toEqual({
      kind: 'password-required',
      email: 'ada@example.com',
    });
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'ERROR', callbackData: { message: 'Denied.' } }), ORIGIN)).toEqual({
      kind: 'error',
      message: 'Denied.',
    });
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'ERROR', callbackData: {} }), ORIGIN)).toEqual({
      kind: 'error',
      message: 'An error occurred. Please try again later',
    });
  });

  it('maps TWO_FACTOR to the second step, without signing in (issue 36)', () => {
    const bootstrapData = makeBootstrap({ user: null });
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'TWO_FACTOR', callbackData: { bootstrapData } }), ORIGIN)).toEqual({
      kind: 'second-step',
    });
  });

  it('maps a SUCCESS that still needs a second factor set up to the set-up step, without signing in (issue 36)', () => {
    const bootstrapData = makeBootstrap({ user: null });
    expect(readSocialAuthMessage(event({ type: 'social-auth', status: 'SUCCESS', callbackData: { bootstrapData, two_factor_setup: true } }), ORIGIN)).toEqual({
      kind: 'setup-step',
    });
  });

  it('applies each outcome through its handler', () => {
    const handlers = {
      setBootstrap: vi.fn(),
      goToTarget: vi.fn(),
      requestPassword: vi.fn(),
      requestSecondStep: vi.fn(),
      requestSetupStep: vi.fn(),
      showError: vi.fn(),
    };
    const bootstrapData = makeBootstrap({ user: makeUser() });

    applySocialAuthOutcome({ kind: 'signed-in', bootstrapData }, handlers);
    expect(handlers.setBootstrap).toHaveBeenCalledWith(bootstrapData);
    expect(handlers.goToTarget).toHaveBeenCalledWith(bootstrapData);

    applySocialAuthOutcome({ kind: 'already-signed-in' }, handlers);
    expect(handlers.goToTarget).toHaveBeenLastCalledWith(null);

    applySocialAuthOutcome({ kind: 'password-required', email: 'ada@example.com' }, handlers);
    expect(handlers.requestPassword).toHaveBeenCalledWith('ada@example.com');

    applySocialAuthOutcome({ kind: 'second-step' }, handlers);
    expect(handlers.requestSecondStep).toHaveBeenCalledTimes(1);

    applySocialAuthOutcome({ kind: 'setup-step' }, handlers);
    expect(handlers.requestSetupStep).toHaveBeenCalledTimes(1);

    applySocialAuthOutcome({ kind: 'error', message: 'Nope' }, handlers);
    expect(handlers.showError).toHaveBeenCalledWith('Nope');
    expect(handlers.setBootstrap).toHaveBeenCalledTimes(1);
  });

  it('opens a 650 × 550 popup at the login or connect address', () => {
    expect(socialPopupUrl('google', 'login')).toBe('/secure/auth/social/google/login');
    expect(socialPopupUrl('facebook', 'connect')).toBe('/secure/auth/social/facebook/connect');
    const open = vi.fn(() => null);
    const win = { open, screenX: 0, screenY: 0, outerWidth: 1650, outerHeight: 1550 } as unknown as Window;
    openSocialPopup('google', 'login', win);
    expect(open).toHaveBeenCalledWith('/secure/auth/social/google/login', 'social-auth', 'width=650,height=550,left=500,top=500');
  });
});
