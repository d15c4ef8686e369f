import { describe, expect, it } from 'vitest';
import { DEFAULT_CYCLE, listedPlans, pickPrice, planButton, yearlySaving, type Product } from '../../../src/features/pricing/plans';

const price = (id: number, interval: string, interval_count = 1, amount = 10) => ({ id, product_id: 1, amount, currency: 'USD', interval, interval_count });

describe('spec §4 price choice by billing cycle', () => {
  it('defaults to yearly', () => expect(DEFAULT_CYCLE).toBe('yearly'));

  it('monthly: a day interval of 30 or more, or a month interval of 1 or more', () => {
    expect(pickPrice([price(1, 'year'), price(2, 'month')], 'monthly')?.id).toBe(2);
    expect(pickPrice([price(1, 'day', 7), price(2, 'day', 30)], 'monthly')?.id).toBe(2);
    expect(pickPrice([price(1, 'week'), price(2, 'year')], 'monthly')?.id).toBe(1);
  });

  it('yearly: a month interval of 12 or more, or a year interval of 1 or more', () => {
    expect(pickPrice([price(1, 'month'), price(2, 'year')], 'yearly')?.id).toBe(2);
    expect(pickPrice([price(1, 'month'), price(2, 'month', 12)], 'yearly')?.id).toBe(2);
  });

  it('otherwise the first price, and nothing for a plan without prices', () => {
    expect(pickPrice([price(5, 'week'), price(6, 'day', 3)], 'yearly')?.id).toBe(5);
    expect(pickPrice([], 'monthly')).toBeUndefined();
  });

  it('yearly saving against twelve months', () => {
    expect(yearlySaving([price(1, 'month', 1, 9.99), price(2, 'year', 1, 99.99)])).toBe(17);
    expect(yearlySaving([price(1, 'month', 1, 0)])).toBeNull();
  });
});

describe('spec §4 plan button', () => {
  const free = { id: 1, name: 'Free', free: true };
  const pro = { id: 2, name: 'Pro', free: false };
  it('guest: to registration from pricing, a paid pick carried in the link (a click before the app runs keeps it)', () => {
    expect(planButton(free, { id: 1 }, false)).toEqual({ kind: 'register', label: 'Get started', to: '/register?redirectFrom=pricing' });
    expect(planButton(pro, { id: 3 }, false)).toEqual({ kind: 'register', label: 'Upgrade', to: '/register?redirectFrom=pricing&product=2&price=3' });
    expect(planButton(pro, undefined, false)).toEqual({ kind: 'register', label: 'Upgrade', to: '/register?redirectFrom=pricing' });
  });
  it("signed in: a paid plan goes to its checkout, the free plan reads You're on", () => {
    expect(planButton(pro, { id: 3 }, true)).toEqual({ kind: 'checkout', label: 'Upgrade', to: '/checkout/2/3' });
    expect(planButton(free, { id: 1 }, true)).toEqual({ kind: 'current', label: "You're on :plan", plan: 'Free' });
  });
  it('hidden plans are not listed', () => {
    const plans = [
      { id: 1, hidden: false },
      { id: 2, hidden: true },
    ] as Product[];
    expect(listedPlans(plans).map((p) => p.id)).toEqual([1]);
  });
});
