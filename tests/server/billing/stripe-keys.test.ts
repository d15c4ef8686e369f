import { describe, expect, it } from 'vitest';
import { stripeKeys } from '../../../server/modules/billing/index.js';

describe('stripeKeys', () => {
  const env = { secretKey: 'sk_env', webhookSecret: 'whsec_env', apiBase: undefined };
  const settingsOf = (values: Record<string, unknown>) => ({ get: async (key: string) => values[key] as never });

  it('prefers the admin’s settings over the environment', async () => {
    const keys = stripeKeys(settingsOf({ 'billing.stripe.secret_key': 'sk_set', 'billing.stripe.webhook_secret': 'whsec_set' }), env);
    expect(await keys()).toEqual({ secretKey: 'sk_set', webhookSecret: 'whsec_set' });
  });

  it('falls back to the environment for an empty or missing setting, and to empty without either', async () => {
    expect(await stripeKeys(settingsOf({ 'billing.stripe.secret_key': '' }), env)()).toEqual({ secretKey: 'sk_env', webhookSecret: 'whsec_env' });
    expect(await stripeKeys(settingsOf({}), { secretKey: undefined, webhookSecret: undefined, apiBase: undefined })()).toEqual({
      secretKey: '',
      webhookSecret: '',
    });
  });
});
