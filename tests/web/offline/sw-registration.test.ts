import { afterEach, describe, expect, it, vi } from 'vitest';

/** A refused registration is said in the console, never left as an unhandled rejection. */
describe('service worker registration', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('warns and goes on when the browser refuses the worker', async () => {
    vi.stubEnv('PROD', true);
    const refusal = new DOMException('The operation is insecure.', 'SecurityError');
    const register = vi.fn(() => Promise.reject(refusal));
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { register, addEventListener: vi.fn(), controller: null } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const { registerServiceWorker } = await import('../../../src/offline/sw-registration.js');
      registerServiceWorker();
      await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringContaining('offline use is off'), refusal));
      expect(register).toHaveBeenCalledWith('/sw.js', { scope: '/' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
