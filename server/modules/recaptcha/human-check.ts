import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../lib/errors.js';
import { signValue, verifySignedValue } from '../../lib/tokens.js';
import type { Services } from '../../services.js';

export const HUMAN_COOKIE = 'human_check';
export const HUMAN_CHECK_TTL_MS = 10 * 60 * 1000;
export const HUMAN_CHECK_FAILED = 'Could not verify you are human.';

export type HumanCheckAction = 'register' | 'contact' | 'link_creation';

export async function humanCheckRequired(services: Services, action: HumanCheckAction): Promise<boolean> {
  const [siteKey, enabled] = await Promise.all([
    services.settings.get('recaptcha.site_key'),
    services.settings.get(`recaptcha.enable.${action}`),
  ]);
  return typeof siteKey === 'string' && siteKey !== '' && enabled === true;
}

/** A signed, short-lived proof that this browser passed the human check (set by recaptcha/verify). */
export async function humanCheckCookie(services: Services): Promise<string> {
  return signValue(await services.settings.appKey(), 'human', HUMAN_CHECK_TTL_MS);
}

export async function assertHumanVerified(services: Services, request: FastifyRequest, action: HumanCheckAction) {
  if (!(await humanCheckRequired(services, action))) return;
  const value = verifySignedValue(await services.settings.appKey(), request.cookies[HUMAN_COOKIE]);
  if (value !== 'human') throw ValidationError.field('recaptcha', HUMAN_CHECK_FAILED);
}
