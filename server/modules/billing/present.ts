import type { PriceRow, SubscriptionRow } from '../../db/types.js';
import { parseJson } from '../../lib/json.js';
import type { ProductWithPrices } from './repository.js';
import { isValid, onGracePeriod } from './validity.js';

/** Spec §3 Price: amount in major units on the wire (9.99), kept in minor units (999) in the database. */
export function presentPrice(price: PriceRow) {
  return {
    id: price.id,
    product_id: price.product_id,
    amount: price.amount / 100,
    currency: price.currency,
    interval: price.interval,
    interval_count: price.interval_count,
  };
}

/** Spec §3 Product, with the storage space the plan gives (bytes; null: unlimited). */
export function presentProduct(product: ProductWithPrices) {
  return {
    id: product.id,
    name: product.name,
    description: product.description ?? '',
    hidden: product.hidden === 1,
    recommended: product.recommended === 1,
    free: product.free === 1,
    feature_list: parseJson<string[]>(product.feature_list, []),
    available_space: product.available_space,
    position: product.position,
    prices: product.prices.map(presentPrice),
  };
}

export function presentSubscription(row: SubscriptionRow, product: ProductWithPrices | undefined, price: PriceRow | undefined) {
  return {
    id: row.id,
    status: row.gateway_status,
    valid: isValid(row),
    on_grace_period: onGracePeriod(row),
    renews_at: row.renews_at,
    ends_at: row.ends_at,
    cancelled_at: row.cancelled_at,
    product: product ? presentProduct(product) : null,
    price: price ? presentPrice(price) : null,
  };
}
