import type { SocialService } from '../../api/api-types';
import type { Bootstrap } from '../../api/bootstrap-types';

// Spec §4 "Social login": a popup (650 × 550) at secure/auth/social/{service}/
// login or /connect posts back `{type: 'social-auth', status, callbackData}`.
// Only messages from our own origin with that type are read.

export const SOCIAL_AUTH_MESSAGE = 'social-auth';
export const SOCIAL_ERROR_FALLBACK = 'An error occurred. Please try again later';
export const SOCIAL_POPUP_SIZE = { width: 650, height: 550 } as const;
export const SOCIAL_SERVICES: readonly SocialService[] = ['google', 'facebook'];

export type SocialAuthOutcome =
  | { kind: 'signed-in'; bootstrapData: Bootstrap }
  | { kind: 'already-signed-in' }
  | { kind: 'password-required'; email: string | null }
  /** The provider vouched; the account's second factor is asked before the sign-in completes. */
  | { kind: 'second-step' }
  /** The provider vouched, and a role requires a second factor the account does not have: its set-up comes first. */
  | { kind: 'setup-step' }
  | { kind: 'error'; message: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The outcome a popup reported, or null for anything that is not ours to read. */
export function readSocialAuthMessage(event: { origin: string; data: unknown }, appOrigin: string): SocialAuthOutcome | null {
  if (event.origin !== appOrigin) return null;
  const { data } = event;
  if (!isRecord(data) || data.type !== SOCIAL_AUTH_MESSAGE) return null;
  const callbackData = isRecord(data.callbackData) ? data.callbackData : {};
  switch (data.status) {
    case 'SUCCESS':
      if (callbackData.two_factor_setup === true) return { kind: 'setup-step' };
      return isRecord(callbackData.bootstrapData)
        ? { kind: 'signed-in', bootstrapData: callbackData.bootstrapData as unknown as Bootstrap }
        : { kind: 'error', message: SOCIAL_ERROR_FALLBACK };
    case 'ALREADY_LOGGED_IN':
      return { kind: 'already-signed-in' };
    case 'REQUEST_PASSWORD':
      return { kind: 'password-required', email: typeof callbackData.email === 'string' ? callbackData.email : null };
    case 'TWO_FACTOR':
      return { kind: 'second-step' };
    case 'ERROR': {
      const message = typeof callbackData.message === 'string' && callbackData.message ? callbackData.message : SOCIAL_ERROR_FALLBACK;
      return { kind: 'error', message };
    }
    default:
      return null;
  }
}

export interface SocialAuthHandlers {
  setBootstrap: (data: Bootstrap) => void;
  /** Go to the saved redirect target (history replaced). */
  goToTarget: (data: Bootstrap | null) => void;
  requestPassword: (email: string | null) => void;
  requestSecondStep: () => void;
  requestSetupStep: () => void;
  showError: (message: string) => void;
}

export function applySocialAuthOutcome(outcome: SocialAuthOutcome, handlers: SocialAuthHandlers): void {
  switch (outcome.kind) {
    case 'signed-in':
      handlers.setBootstrap(outcome.bootstrapData);
      handlers.goToTarget(outcome.bootstrapData);
      return;
    case 'already-signed-in':
      handlers.goToTarget(null);
      return;
    case 'password-required':
      handlers.requestPassword(outcome.email);
      return;
    case 'second-step':
      handlers.requestSecondStep();
      return;
    case 'setup-step':
      handlers.requestSetupStep();
      return;
    case 'error':
      handlers.showError(outcome.message);
      return;
  }
}

export function socialPopupUrl(service: SocialService, mode: 'login' | 'connect'): string {
  return `/secure/auth/social/${service}/${mode}`;
}

/** Opens the provider popup centred over the window. */
export function openSocialPopup(service: SocialService, mode: 'login' | 'connect', win: Window = window): Window | null {
  const { width, height } = SOCIAL_POPUP_SIZE;
  const left = Math.max(0, Math.round(win.screenX + (win.outerWidth - width) / 2));
  const top = Math.max(0, Math.round(win.screenY + (win.outerHeight - height) / 2));
  return win.open(socialPopupUrl(service, mode), 'social-auth', `width=${width},height=${height},left=${left},top=${top}`);
}
