import type { SettingsService } from '../settings/service.js';

/** Asks the configured provider (Google reCAPTCHA's siteverify, or a compatible one) about a token. */
export class RecaptchaService {
  constructor(private readonly settings: SettingsService) {}

  async verify(token: string, ip: string | null): Promise<boolean> {
    const settings = await this.settings.all({ includePrivate: true });
    const secret = settings['recaptcha.secret_key'];
    const url = settings['recaptcha.verify_url'];
    if (typeof secret !== 'string' || !secret || typeof url !== 'string' || !url) return false;
    const form = new URLSearchParams({ secret, response: token });
    if (ip) form.set('remoteip', ip);
    try {
      const response = await fetch(url, { method: 'POST', body: form, signal: AbortSignal.timeout(5000) });
      if (!response.ok) return false;
      const body = (await response.json()) as { success?: unknown };
      return body.success === true;
    } catch {
      return false;
    }
  }
}
