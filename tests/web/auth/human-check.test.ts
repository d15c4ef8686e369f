import { describe, expect, it, vi } from 'vitest';
import { HUMAN_CHECK_FAILED, isHumanCheckRequired, recaptchaScriptUrl, runHumanCheck } from '../../../src/features/auth/human-check';
import type { Grecaptcha } from '../../../src/features/auth/human-check';

function fakeGrecaptcha(token = 'token-123'): Grecaptcha & { execute: ReturnType<typeof vi.fn> } {
  return { ready: (callback: () => void) => callback(), execute: vi.fn(async () => token) };
}

describe('human check', () => {
  it('is required only with a site key and the action enabled', () => {
    expect(isHumanCheckRequired({ site_key: 'key', enable: { register: true } }, 'register')).toBe(true);
    expect(isHumanCheckRequired({ site_key: '', enable: { register: true } }, 'register')).toBe(false);
    expect(isHumanCheckRequired({ site_key: 'key', enable: { register: false } }, 'register')).toBe(false);
  });

  it('loads the script for the site key, gets a token for the action and has the server verify it', async () => {
    const grecaptcha = fakeGrecaptcha();
    const loadScript = vi.fn(async () => grecaptcha);
    const verifyToken = vi.fn(async () => true);
    await expect(runHumanCheck('site key', 'register', { loadScript, verifyToken })).resolves.toEqual({ ok: true });
    expect(loadScript).toHaveBeenCalledWith('https://www.google.com/recaptcha/api.js?render=site%20key');
    expect(recaptchaScriptUrl('abc')).toBe('https://www.google.com/recaptcha/api.js?render=abc');
    expect(grecaptcha.execute).toHaveBeenCalledWith('site key', { action: 'register' });
    expect(verifyToken).toHaveBeenCalledWith('token-123');
  });

  it('fails with the spec message when the server says no', async () => {
    const result = await runHumanCheck('key', 'register', { loadScript: async () => fakeGrecaptcha(), verifyToken: async () => false });
    expect(result).toEqual({ ok: false, message: 'Could not verify you are human.' });
  });

  it('fails with the same message when the script cannot load', async () => {
    const verifyToken = vi.fn(async () => true);
    const result = await runHumanCheck('key', 'register', { loadScript: () => Promise.reject(new Error('blocked')), verifyToken });
    expect(result).toEqual({ ok: false, message: HUMAN_CHECK_FAILED });
    expect(verifyToken).not.toHaveBeenCalled();
  });
});
