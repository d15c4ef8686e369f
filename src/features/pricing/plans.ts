import type { JsonResponse } from '../../api/api-types';

export type Product = JsonResponse<'/api/v1/billing/products', 'get'>['pagination']['data'][number];
export type Price = Product['prices'][number];
export type BillingCycle = 'monthly' | 'yearly';

/** Billing cycle defaults to yearly (spec §4, §9). */
export const DEFAULT_CYCLE: BillingCycle = 'yearly';

/**
 * Spec §4 "Pricing": monthly picks a price with a day interval of 30 or more,
 * or a month interval of 1 or more; yearly picks a month interval of 12 or
 * more, or a year interval of 1 or more; otherwise the first price.
 */
export function pickPrice<P extends Pick<Price, 'interval' | 'interval_count'>>(prices: readonly P[], cycle: BillingCycle): P | undefined {
  const fits = (price: P) =>
    cycle === 'monthly'
      ? (price.interval === 'day' && price.interval_count >= 30) || (price.interval === 'month' && price.interval_count >= 1)
      : (price.interval === 'month' && price.interval_count >= 12) || (price.interval === 'year' && price.interval_count >= 1);
  return prices.find(fits) ?? prices[0];
}

/** Hidden plans are not listed (the server leaves them out too). */
export const listedPlans = (products: readonly Product[]) => products.filter((product) => !product.hidden);

export type PlanButton =
  | { kind: 'register'; label: 'Get started' | 'Upgrade'; to: string }
  | { kind: 'checkout'; label: 'Upgrade'; to: string }
  | { kind: 'current'; label: "You're on :plan"; plan: string };

/**
 * Spec §4 "Plan button": a guest goes to registration (the selection is kept
 * for after it); a signed-in user's paid plan goes to its checkout; the free
 * plan reads "You're on {plan}" when signed in, 'Get started' otherwise; paid
 * plans read 'Upgrade'. A guest's paid pick travels in the link itself: the
 * page is written by the server, and a click before the app runs is a plain
 * navigation that no click handler sees.
 */
export function planButton(product: Pick<Product, 'id' | 'name' | 'free'>, price: Pick<Price, 'id'> | undefined, signedIn: boolean): PlanButton {
  if (product.free && signedIn) return { kind: 'current', label: "You're on :plan", plan: product.name };
  const label = product.free ? 'Get started' : 'Upgrade';
  if (!signedIn) {
    const pick = !product.free && price ? `&product=${encodeURIComponent(product.id)}&price=${encodeURIComponent(price.id)}` : '';
    return { kind: 'register', label, to: `/register?redirectFrom=pricing${pick}` };
  }
  return { kind: 'checkout', label: 'Upgrade', to: `/checkout/${product.id}/${price?.id ?? ''}` };
}

/** "Save 17%": what a year costs against twelve months, when both exist. */
export function yearlySaving(prices: readonly Pick<Price, 'amount' | 'interval' | 'interval_count'>[]): number | null {
  const monthly = pickPrice(prices, 'monthly');
  const yearly = pickPrice(prices, 'yearly');
  if (!monthly || !yearly || monthly === yearly || monthly.amount <= 0) return null;
  const months = yearly.interval === 'year' ? 12 * yearly.interval_count : yearly.interval_count;
  const saving = Math.round((1 - yearly.amount / (monthly.amount * months)) * 100);
  return saving > 0 ? saving : null;
}

/** 9.99 USD → "$9.99" in the reader's language. */
export function formatAmount(amount: number, currency: string, language: string): string {
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}
