import type Stripe from 'stripe';
import type { PriceRow, ProductRow } from '../../db/types.js';
import type { BillingRepository } from './repository.js';
import { call } from './call.js';

/**
 * Our plans and prices as Stripe objects, made there on first need. Checkout
 * makes them when a plan was created before Stripe was configured; the admin
 * plan editor makes them as soon as a plan or price is saved. Either way the
 * id kept is the first one recorded, so two requests racing make no twins.
 */
export async function ensureStripeProduct(stripe: Stripe, repo: BillingRepository, product: ProductRow): Promise<string> {
  if (product.gateway_id) return product.gateway_id;
  const created = await call(() =>
    stripe.products.create({
      name: product.name,
      ...(product.description ? { description: product.description } : {}),
      active: product.hidden !== 1,
      metadata: { product_id: String(product.id) },
    }),
  );
  return repo.setProductGatewayId(product.id, created.id);
}

export async function ensureStripePrice(stripe: Stripe, repo: BillingRepository, product: ProductRow, price: PriceRow): Promise<string> {
  if (price.gateway_id) return price.gateway_id;
  const productId = await ensureStripeProduct(stripe, repo, product);
  const created = await call(() =>
    stripe.prices.create({
      product: productId,
      unit_amount: price.amount,
      currency: price.currency.toLowerCase(),
      recurring: { interval: price.interval as Stripe.PriceCreateParams.Recurring.Interval, interval_count: price.interval_count },
      metadata: { price_id: String(price.id) },
    }),
  );
  return repo.setPriceGatewayId(price.id, created.id);
}
