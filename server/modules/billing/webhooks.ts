import type Stripe from 'stripe';
import { HttpError } from '../../lib/errors.js';
import type { StripeGateway } from './gateway.js';
import type { BillingRepository } from './repository.js';
import { call } from './call.js';

export const BAD_SIGNATURE = 'The webhook signature is not valid.';
export const WEBHOOK_UNCONFIGURED = 'Billing is not configured on this site.';
export const UNKNOWN_PRICE = 'The subscription is for a price this site does not sell.';
export const UNKNOWN_CUSTOMER = 'The subscription belongs to a customer this site does not know.';

/** The events that move a subscription (checklist: every one comes verified, once). */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
]);

const iso = (seconds: number | null | undefined): string | null => (seconds ? new Date(seconds * 1000).toISOString() : null);
const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

/**
 * Stripe's webhook: the signature is checked on the raw bytes with the
 * endpoint's secret (no secret configured: refused, never trusted), each
 * event id is handled once, and the subscription is read afresh from Stripe
 * rather than from the event, so out-of-order deliveries settle on Stripe's
 * current state.
 */
export class BillingWebhooks {
  constructor(
    private readonly repo: BillingRepository,
    private readonly gateway: StripeGateway,
  ) {}

  async receive(payload: Buffer, signature: string | undefined): Promise<{ received: true; duplicate: boolean }> {
    const keys = await this.gateway.configured();
    if (!keys) throw new HttpError(400, WEBHOOK_UNCONFIGURED, undefined, 'BILLING_OFF');
    const stripe = this.gateway.client(keys);
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('no signature');
      event = stripe.webhooks.constructEvent(payload, signature, keys.webhookSecret);
    } catch {
      throw new HttpError(400, BAD_SIGNATURE, undefined, 'BAD_SIGNATURE');
    }
    if (await this.repo.eventSeen(event.id)) return { received: true, duplicate: true };
    const subscriptionId = HANDLED_EVENTS.has(event.type) ? subscriptionOf(event) : null;
    if (!subscriptionId) {
      const fresh = await this.repo.applyEvent(event, null);
      return { received: true, duplicate: !fresh };
    }
    const subscription = await call(() => stripe.subscriptions.retrieve(subscriptionId));
    const values = await this.valuesOf(subscription);
    const fresh = await this.repo.applyEvent(event, (trx) => this.repo.upsertSubscription(trx, values));
    return { received: true, duplicate: !fresh };
  }

  private async valuesOf(subscription: Stripe.Subscription) {
    const item = subscription.items.data[0];
    const price = item ? await this.repo.priceByGatewayId(item.price.id) : undefined;
    if (!item || !price) throw new HttpError(400, UNKNOWN_PRICE, undefined, 'UNKNOWN_PRICE');
    const customer = idOf(subscription.customer);
    const userId = customer ? await this.repo.userOfCustomer(customer) : undefined;
    if (userId === undefined) throw new HttpError(400, UNKNOWN_CUSTOMER, undefined, 'UNKNOWN_CUSTOMER');
    const ended = subscription.status === 'canceled' || subscription.status === 'incomplete_expired';
    const periodEnd = iso(item.current_period_end);
    return {
      user_id: userId,
      product_id: price.product_id,
      price_id: price.id,
      gateway_name: 'stripe',
      gateway_id: subscription.id,
      gateway_customer_id: customer,
      gateway_status: subscription.status,
      renews_at: ended || subscription.cancel_at_period_end ? null : periodEnd,
      ends_at: ended
        ? (iso(subscription.ended_at) ?? new Date().toISOString())
        : subscription.cancel_at_period_end
          ? (iso(subscription.cancel_at) ?? periodEnd)
          : null,
      cancelled_at: iso(subscription.canceled_at),
    };
  }
}

/** The subscription an event is about, if any. */
function subscriptionOf(event: Stripe.Event): string | null {
  switch (event.type) {
    case 'checkout.session.completed':
      return event.data.object.mode === 'subscription' ? idOf(event.data.object.subscription) : null;
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return event.data.object.id;
    case 'invoice.paid':
    case 'invoice.payment_failed':
      return idOf(event.data.object.parent?.subscription_details?.subscription);
    default:
      return null;
  }
}
