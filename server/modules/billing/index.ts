import type { Kysely } from 'kysely';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { API_PREFIX, moduleRoutes } from '../../lib/routes.js';
import type { SettingsService } from '../settings/service.js';
import { StripeGateway } from './gateway.js';
import { BillingRepository } from './repository.js';
import { bytesCharged } from '../drive/repository.js';
import { billingRoutes } from './routes.js';
import { BillingService } from './service.js';
import { billingWebhookRoutes } from './webhook-routes.js';
import { BillingWebhooks } from './webhooks.js';

/** Stripe's keys: the admin's settings win over the environment's, and an empty setting does not count. */
export function stripeKeys(settings: Pick<SettingsService, 'get'>, env: Config['stripe']) {
  return async (): Promise<{ secretKey: string; webhookSecret: string }> => {
    const secret = await settings.get('billing.stripe.secret_key');
    const webhook = await settings.get('billing.stripe.webhook_secret');
    return {
      secretKey: (typeof secret === 'string' && secret) || env.secretKey || '',
      webhookSecret: (typeof webhook === 'string' && webhook) || env.webhookSecret || '',
    };
  };
}

export interface BillingModuleDeps {
  db: Kysely<Database>;
  settings: Pick<SettingsService, 'get'>;
  stripe: Config['stripe'];
  appUrl(): Promise<string>;
}

/** Plans, subscriptions through Stripe, and the webhook that alone changes a subscription here. */
export function createBilling(deps: BillingModuleDeps) {
  const repo = new BillingRepository(deps.db);
  const gateway = new StripeGateway(stripeKeys(deps.settings, deps.stripe), deps.stripe.apiBase);
  const billing = new BillingService(repo, gateway, {
    switchedOn: async () => (await deps.settings.get('billing.enable')) !== false,
    appUrl: deps.appUrl,
    // Bytes a user stores now: the drive's one rule for charged bytes.
    usedBy: (userId) => bytesCharged(deps.db, userId),
  });
  const billingWebhooks = new BillingWebhooks(repo, gateway);
  return {
    repo,
    billing,
    billingWebhooks,
    /** A Stripe client for the configured keys, or null while billing has none (the admin's plan and subscription screens). */
    stripeClient: async () => {
      const keys = await gateway.configured();
      return keys ? gateway.client(keys) : null;
    },
    routes: [moduleRoutes(API_PREFIX, billingRoutes, { billing }), moduleRoutes(API_PREFIX, billingWebhookRoutes, { billingWebhooks })],
  };
}
