import { beforeEach, describe, expect, it } from 'vitest';
import {
  getLandingPath,
  ONBOARDING_SELECTION_KEY,
  readOnboardingSelection,
  safeRedirectTarget,
  saveOnboardingSelection,
  selectionFromQuery,
} from '../../src/app/landing';
import { makeUser } from './fixtures';

describe('landing path', () => {
  beforeEach(() => localStorage.clear());

  it('is /drive for users and admins', () => {
    expect(getLandingPath(makeUser())).toBe('/drive');
  });

  it('goes to checkout when an onboarding selection is saved', () => {
    saveOnboardingSelection({ productId: 2, priceId: 7 });
    expect(localStorage.getItem(ONBOARDING_SELECTION_KEY)).not.toBeNull();
    expect(getLandingPath(makeUser())).toBe('/checkout/2/7');
    saveOnboardingSelection(null);
    expect(readOnboardingSelection()).toBeNull();
    expect(getLandingPath(makeUser())).toBe('/drive');
  });

  it("reads a pricing link's pick from /register's query, and nothing else", () => {
    const read = (query: string) => selectionFromQuery(new URLSearchParams(query));
    expect(read('redirectFrom=pricing&product=2&price=7')).toEqual({ productId: '2', priceId: '7' });
    expect(read('product=2&price=7')).toBeNull();
    expect(read('redirectFrom=pricing&product=2')).toBeNull();
    expect(read('redirectFrom=pricing&product=2&price=..%2F..%2Fadmin')).toBeNull();
  });

  it('ignores a malformed selection', () => {
    localStorage.setItem(ONBOARDING_SELECTION_KEY, '{"productId":1}');
    expect(getLandingPath(makeUser())).toBe('/drive');
  });

  it('only accepts in-app redirect targets', () => {
    expect(safeRedirectTarget('/drive/trash?x=1')).toBe('/drive/trash?x=1');
    expect(safeRedirectTarget('//evil.example')).toBeNull();
    // Issue 30 finding 7: what a browser reads as another host after dropping tabs and line breaks.
    expect(safeRedirectTarget('/\t/evil.example')).toBeNull();
    expect(safeRedirectTarget('/\n/evil.example')).toBeNull();
    expect(safeRedirectTarget(' /dri\tve')).toBe('/drive');
    expect(safeRedirectTarget('https://evil.example')).toBeNull();
    expect(safeRedirectTarget(null)).toBeNull();
  });
});
