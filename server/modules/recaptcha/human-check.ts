import type { FastifyRequest } from 'fastify';
import { ValidationError } from '../../lib/errors.js';
import { signValue, verifySignedValue } from '../../lib/tokens.js';
import type { SettingsService } from '../settings/service.js';

export const HUMAN_COOKIE = 'human_check';
export const HUMAN_CHECK_TTL_MS = 10 * 60 * 1000;
export const HUMAN_CHECK_FAILED = 'Could not verify you are human.';

/** What the human check needs, and no more. */
export interface HumanCheckDeps {
  settings: Pick<SettingsService, 'get' | 'appKey'>;
}

export type HumanCheckAction = 'register' | 'contact' | 'link_creation';

export async function humanCheckRequired(services: HumanCheckDeps, action: HumanCheckAction): Promise<boolean> {
  const [siteKey, enabled] = await Promise.all([services.settings.get('recaptcha.site_key'), services.settings.get(`recaptcha.enable.${action}`)]);
  return typeof siteKey === 'string' && siteKey !== '' && enabled === true;
}

const ACTIONS: HumanCheckAction[] = ['register', 'contact', 'link_creation'];

/** Whether any form asks for the human check: pages then may load its script. */
export async function humanCheckInUse(services: HumanCheckDeps): Promise<boolean> {
  for (const action of ACTIONS) if (await humanCheckRequired(services, action)) return true;
  return false;
}

/** A signed, short-lived proof that this browser passed the human check (set by recaptcha/verify). */
export async function humanCheckCookie(services: HumanCheckDeps): Promise<string> {
  return signValue(await services.settings.appKey(), 'human', HUMAN_CHECK_TTL_MS);
}

export async function assertHumanVerified(services: HumanCheckDeps, request: FastifyRequest, action: HumanCheckAction) {
  if (!(await humanCheckRequired(services, action))) return;
  const value = verifySignedValue(await services.settings.appKey(), request.cookies[HUMAN_COOKIE]);
  if (value !== 'human') throw ValidationError.field('recaptcha', HUMAN_CHECK_FAILED);
}
