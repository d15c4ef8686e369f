/**
 * The plans a new installation starts with (admins edit them later); amounts in cents.
 * Features never restate the storage: the card shows available_space itself.
 */
const GB = 1024 * 1024 * 1024;

export interface PlanSeed {
  name: string;
  description: string;
  feature_list: string[];
  free?: boolean;
  recommended?: boolean;
  available_space: number | null;
  prices: { amount: number; currency: string; interval: 'day' | 'week' | 'month' | 'year'; interval_count: number }[];
}

export const defaultPlans: PlanSeed[] = [
  {
    name: 'Free',
    description: 'For trying things out and keeping a few files.',
    feature_list: ['Share files and folders', 'Access from any device'],
    free: true,
    available_space: 10 * GB,
    prices: [{ amount: 0, currency: 'USD', interval: 'month', interval_count: 1 }],
  },
  {
    name: 'Pro',
    description: 'For people who keep everything in one place.',
    feature_list: ['Share links with passwords and expiry', 'Team workspaces'],
    recommended: true,
    available_space: 100 * GB,
    prices: [
      { amount: 999, currency: 'USD', interval: 'month', interval_count: 1 },
      { amount: 9999, currency: 'USD', interval: 'year', interval_count: 1 },
    ],
  },
  {
    name: 'Business',
    description: 'For teams that share a lot.',
    feature_list: ['Everything in Pro', 'Priority support'],
    available_space: 1024 * GB,
    prices: [
      { amount: 1999, currency: 'USD', interval: 'month', interval_count: 1 },
      { amount: 19999, currency: 'USD', interval: 'year', interval_count: 1 },
    ],
  },
];
