import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { SettingsService } from '../settings/service.js';
import { recaptchaRoutes } from './routes.js';
import { RecaptchaService } from './service.js';

/** Human verification (reCAPTCHA) and the cookie that proves it for a while. */
export function createRecaptcha(settings: SettingsService) {
  const recaptcha = new RecaptchaService(settings);
  return { recaptcha, routes: moduleRoutes(API_PREFIX, recaptchaRoutes, { recaptcha, settings }) };
}
