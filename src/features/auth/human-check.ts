import { verifyHumanToken } from './api';

// Spec §5: when a human-check key is configured and enabled for an action,
// the form must pass Google's reCAPTCHA v3 before it is submitted. The script
// is loaded on demand; its loader and the server call are injectable so unit
// tests never reach the internet.

export const HUMAN_CHECK_FAILED = 'Could not verify you are human.';
export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js';

export interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export interface HumanCheckDeps {
  /** Resolves once the script at `src` has loaded and `grecaptcha` exists. */
  loadScript: (src: string) => Promise<Grecaptcha>;
  verifyToken: (token: string) => Promise<boolean>;
}

export type HumanCheckResult = { ok: true } | { ok: false; message: string };

export interface RecaptchaConfig {
  site_key: string;
  enable: Record<string, boolean>;
}

export function isHumanCheckRequired(config: RecaptchaConfig, action: string): boolean {
  return !!config.site_key && config.enable[action] === true;
}

export function recaptchaScriptUrl(siteKey: string): string {
  return `${RECAPTCHA_SCRIPT}?render=${encodeURIComponent(siteKey)}`;
}

export async function runHumanCheck(siteKey: string, action: string, deps: HumanCheckDeps = defaultHumanCheckDeps): Promise<HumanCheckResult> {
  try {
    const grecaptcha = await deps.loadScript(recaptchaScriptUrl(siteKey));
    await new Promise<void>((resolve) => grecaptcha.ready(resolve));
    const token = await grecaptcha.execute(siteKey, { action });
    if (token && (await deps.verifyToken(token))) return { ok: true };
  } catch {
    // A blocked script, a network failure or a refused token all read the same to the user.
  }
  return { ok: false, message: HUMAN_CHECK_FAILED };
}

const pending = new Map<string, Promise<Grecaptcha>>();

/** Adds the script tag once per address; later calls share the same promise. */
export function loadRecaptchaScript(src: string, doc: Document = document): Promise<Grecaptcha> {
  const existing = pending.get(src);
  if (existing) return existing;
  const promise = new Promise<Grecaptcha>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => (window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('grecaptcha missing')));
    script.onerror = () => {
      pending.delete(src);
      script.remove();
      reject(new Error('could not load the human check'));
    };
    doc.head.appendChild(script);
  });
  pending.set(src, promise);
  return promise;
}

export const defaultHumanCheckDeps: HumanCheckDeps = {
  loadScript: (src) => loadRecaptchaScript(src),
  verifyToken: verifyHumanToken,
};
