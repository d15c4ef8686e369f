import type { User } from '../api/bootstrap-types';
import { sameSitePath } from '../../common/same-site-path';

// The onboarding selection (a plan picked on /pricing before signing up) is
// kept in localStorage so it survives the registration round trip.
export const ONBOARDING_SELECTION_KEY = 'be-onboarding-selection';

export interface OnboardingSelection {
  productId: number | string;
  priceId: number | string;
}

export function readOnboardingSelection(storage: Pick<Storage, 'getItem'> = localStorage): OnboardingSelection | null {
  try {
    const raw = storage.getItem(ONBOARDING_SELECTION_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const { productId, priceId } = value as Record<string, unknown>;
    const ok = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v !== '');
    return ok(productId) && ok(priceId) ? { productId: productId as number | string, priceId: priceId as number | string } : null;
  } catch {
    return null;
  }
}

export function saveOnboardingSelection(selection: OnboardingSelection | null, storage: Storage = localStorage): void {
  if (selection) storage.setItem(ONBOARDING_SELECTION_KEY, JSON.stringify(selection));
  else storage.removeItem(ONBOARDING_SELECTION_KEY);
}

/** The plan a guest picked on /pricing, as its Upgrade link carries it to /register (see planButton). */
export function selectionFromQuery(params: URLSearchParams): OnboardingSelection | null {
  if (params.get('redirectFrom') !== 'pricing') return null;
  const productId = params.get('product');
  const priceId = params.get('price');
  const id = /^[A-Za-z0-9_-]{1,64}$/;
  return productId && priceId && id.test(productId) && id.test(priceId) ? { productId, priceId } : null;
}

/** Spec §2 "Landing after login" for the drive variant. */
export function getLandingPath(_user: User | null, selection: OnboardingSelection | null = readOnboardingSelection()): string {
  if (selection) return `/checkout/${selection.productId}/${selection.priceId}`;
  return '/drive';
}

/** Only same-app paths may be redirect targets (no `//evil.example`, no `/<TAB>/evil.example`). */
export function safeRedirectTarget(value: string | null | undefined): string | null {
  return value ? sameSitePath(value) : null;
}
