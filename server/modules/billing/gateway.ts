import Stripe from 'stripe';

export interface StripeKeys {
  secretKey: string;
  webhookSecret: string;
  /** Another API address (a local Stripe double in tests). */
  apiBase: string | undefined;
}

/** The official client, pointed at Stripe or at the configured API base. */
export function createStripeClient(keys: Pick<StripeKeys, 'secretKey' | 'apiBase'>): Stripe {
  const config: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 20_000, appInfo: { name: 'Drive' } };
  if (keys.apiBase) {
    const url = new URL(keys.apiBase);
    config.host = url.hostname;
    config.port = url.port || (url.protocol === 'http:' ? 80 : 443);
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
  }
  return new Stripe(keys.secretKey, config);
}

/** Keys from the settings, else from the environment; null while either is missing (billing off). */
export class StripeGateway {
  private cached: { key: string; client: Stripe } | null = null;

  constructor(
    private readonly keys: () => Promise<{ secretKey: string; webhookSecret: string }>,
    private readonly apiBase: string | undefined,
  ) {}

  async configured(): Promise<StripeKeys | null> {
    const { secretKey, webhookSecret } = await this.keys();
    if (!secretKey || !webhookSecret) return null;
    return { secretKey, webhookSecret, apiBase: this.apiBase };
  }

  /** The client for the configured key (one per key, reused). */
  client(keys: StripeKeys): Stripe {
    if (this.cached?.key !== keys.secretKey) this.cached = { key: keys.secretKey, client: createStripeClient(keys) };
    return this.cached.client;
  }
}
