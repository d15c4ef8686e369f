import type Stripe from 'stripe';
import { Conflict, Forbidden, NotFound } from '../../lib/errors.js';
import { formatBytes } from '../../lib/format.js';
import type { PriceRow, ProductRow, SubscriptionRow } from '../../db/types.js';
import type { StripeGateway, StripeKeys } from './gateway.js';
import { presentProduct, presentSubscription } from './present.js';
import type { BillingRepository } from './repository.js';
import { isValid } from './validity.js';
import { call, gatewayFailed } from './call.js';
import { ensureStripePrice } from './stripe-catalog.js';

export { call, gatewayFailed };

export interface BillingDeps {
  /** The `billing.enable` site switch. */
  switchedOn(): Promise<boolean>;
  /** The site's public address (read on use: an admin may change it). */
  appUrl: () => Promise<string>;
  /** Bytes a user stores now (what their space is measured against). */
  usedBy(userId: number): Promise<number>;
}

export const BILLING_OFF = 'Billing is not enabled on this site.';
export const PLAN_NOT_AVAILABLE = 'This plan is not available.';
export const NO_SUBSCRIPTION = 'You have no subscription.';

/**
 * Plans, checkout and the user's own subscription. Amounts always come from
 * the prices stored here, never from the client; subscriptions change only
 * when Stripe's verified webhooks say so (webhooks.ts), so these calls ask
 * Stripe for a change and answer what happens next.
 */
export class BillingService {
  constructor(
    private readonly repo: BillingRepository,
    private readonly gateway: StripeGateway,
    private readonly deps: BillingDeps,
  ) {}

  /** Billing is on when switched on and Stripe's keys are configured. */
  async enabled(): Promise<boolean> {
    return (await this.deps.switchedOn()) && (await this.gateway.configured()) !== null;
  }

  /** GET billing/products: the listed plans (hidden ones are not). */
  async products() {
    const data = (await this.repo.products()).map(presentProduct);
    return { data, current_page: 1, per_page: data.length, total: data.length };
  }

  /**
   * The space a user's plan gives: their valid subscription's plan, else the
   * free plan while billing is on; undefined when no plan applies (the site
   * default then decides). null means unlimited.
   */
  async planSpace(userId: number): Promise<number | null | undefined> {
    const subscribed = await this.repo.subscribedSpace(userId);
    if (subscribed !== undefined) return subscribed;
    if (!(await this.enabled())) return undefined;
    const free = await this.repo.freeProduct();
    return free ? free.available_space : undefined;
  }

  /**
   * The days a user's plan keeps trashed entries (a plan's override of the
   * site's trash retention): undefined when no plan applies or the plan sets
   * none, so the site setting decides.
   */
  async planTrashDays(userId: number): Promise<number | undefined> {
    const plan = (await this.repo.subscribedProduct(userId)) ?? ((await this.enabled()) ? await this.repo.freeProduct() : undefined);
    return plan?.trash_days ?? undefined;
  }

  /** The bootstrap user's `subscriptions` (spec §3 User, §6 subscribed). */
  async subscriptionFlags(userId: number): Promise<{ id: number; valid: boolean }[]> {
    return (await this.repo.subscriptionsOf(userId)).map((row) => ({ id: row.id, valid: isValid(row) }));
  }

  /** Starts Stripe Checkout for a plan's price; answers the address of Stripe's page. */
  async checkout(user: { id: number; email: string }, productId: number, priceId: number): Promise<{ url: string }> {
    const keys = await this.requireEnabled();
    const { product, price } = await this.purchasable(productId, priceId);
    if (product.free === 1) throw Conflict('The free plan needs no checkout.');
    const current = await this.repo.validSubscriptionOf(user.id);
    if (current?.price_id === price.id) throw Conflict('You are already on this plan.');
    if (current) throw Conflict('You already have a subscription: change your plan from the billing page.');
    const stripe = this.gateway.client(keys);
    const customer = await this.customer(stripe, user);
    const gatewayPrice = await this.gatewayPrice(stripe, product, price);
    const base = `${await this.deps.appUrl()}/checkout/${product.id}/${price.id}`;
    const session = await call(() =>
      stripe.checkout.sessions.create({
        mode: 'subscription',
        customer,
        client_reference_id: String(user.id),
        line_items: [{ price: gatewayPrice, quantity: 1 }],
        subscription_data: { metadata: { user_id: String(user.id) } },
        success_url: `${base}/done?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${base}?cancelled=1`,
      }),
    );
    if (!session.url) throw gatewayFailed();
    return { url: session.url };
  }

  /** GET billing/subscription: the plan the user is on now and how it renews or ends. */
  async subscription(userId: number) {
    const products = await this.repo.products({ includeHidden: true });
    const row = (await this.repo.validSubscriptionOf(userId)) ?? (await this.repo.subscriptionsOf(userId))[0];
    const used = await this.deps.usedBy(userId);
    const subscription = row
      ? presentSubscription(
          row,
          products.find((p) => p.id === row.product_id),
          await this.repo.price(row.price_id),
        )
      : null;
    const current = row && isValid(row) ? products.find((p) => p.id === row.product_id) : products.find((p) => p.free === 1);
    const space = current ? current.available_space : null;
    return {
      subscription,
      plan: current ? presentProduct(current) : null,
      space: { used, available: space, over: space !== null && used > space },
    };
  }

  /** Moves the subscription to another plan or cycle, prorated by Stripe. */
  async changePlan(userId: number, productId: number, priceId: number): Promise<{ message: string; values: Record<string, string> }> {
    const keys = await this.requireEnabled();
    const current = await this.requireSubscription(userId);
    const { product, price } = await this.purchasable(productId, priceId);
    if (product.free === 1) throw Conflict('To move to the free plan, cancel your subscription.');
    if (current.price_id === price.id) throw Conflict('You are already on this plan.');
    const stripe = this.gateway.client(keys);
    const gatewayPrice = await this.gatewayPrice(stripe, product, price);
    const remote = await call(() => stripe.subscriptions.retrieve(current.gateway_id));
    const item = remote.items.data[0];
    if (!item) throw gatewayFailed();
    await call(() =>
      stripe.subscriptions.update(current.gateway_id, {
        items: [{ id: item.id, price: gatewayPrice }],
        proration_behavior: 'create_prorations',
        cancel_at_period_end: false,
      }),
    );
    const used = await this.deps.usedBy(userId);
    if (product.available_space !== null && used > product.available_space) {
      return {
        message: 'Your plan is changing to :plan. You use :used of its :space: your files stay, but uploads wait until you are under it.',
        values: { plan: product.name, used: formatBytes(used), space: formatBytes(product.available_space) },
      };
    }
    return { message: 'Your plan is changing to :plan.', values: { plan: product.name } };
  }

  /** Cancels at the end of the paid period; the plan stays until then. */
  async cancel(userId: number): Promise<void> {
    const keys = await this.requireEnabled();
    const current = await this.requireSubscription(userId);
    if (current.ends_at !== null) throw Conflict('Your subscription is already cancelled.');
    await call(() => this.gateway.client(keys).subscriptions.update(current.gateway_id, { cancel_at_period_end: true }));
  }

  /** Takes back a cancellation before the period ends. */
  async resume(userId: number): Promise<void> {
    const keys = await this.requireEnabled();
    const current = await this.requireSubscription(userId);
    if (current.ends_at === null) throw Conflict('Your subscription is not cancelled.');
    await call(() => this.gateway.client(keys).subscriptions.update(current.gateway_id, { cancel_at_period_end: false }));
  }

  /** Account deletion: cancels the user's running subscriptions at Stripe at once. */
  async endSubscriptions(userId: number): Promise<void> {
    const running = (await this.repo.subscriptionsOf(userId)).filter((row) => isValid(row));
    if (running.length === 0) return;
    const keys = await this.gateway.configured();
    if (!keys) return;
    const stripe = this.gateway.client(keys);
    for (const row of running) await call(() => stripe.subscriptions.cancel(row.gateway_id));
  }

  /** The user's invoices, as Stripe keeps them. */
  async invoices(userId: number) {
    const keys = await this.requireEnabled();
    const customer = await this.repo.customerOf(userId);
    if (!customer) return { data: [] };
    const list = await call(() => this.gateway.client(keys).invoices.list({ customer, limit: 24 }));
    return {
      data: list.data.map((invoice) => ({
        id: invoice.id ?? '',
        number: invoice.number,
        status: invoice.status,
        amount: (invoice.amount_paid || invoice.amount_due) / 100,
        currency: invoice.currency.toUpperCase(),
        created_at: new Date(invoice.created * 1000).toISOString(),
        url: invoice.hosted_invoice_url ?? null,
        pdf: invoice.invoice_pdf ?? null,
      })),
    };
  }

  /** A Stripe Billing Portal session, where the user changes their payment method. */
  async portal(userId: number): Promise<{ url: string }> {
    const keys = await this.requireEnabled();
    const customer = await this.repo.customerOf(userId);
    if (!customer) throw NotFound(NO_SUBSCRIPTION);
    const returnUrl = `${await this.deps.appUrl()}/billing`;
    const session = await call(() => this.gateway.client(keys).billingPortal.sessions.create({ customer, return_url: returnUrl }));
    return { url: session.url };
  }

  private async requireEnabled(): Promise<StripeKeys> {
    const keys = await this.gateway.configured();
    if (!keys || !(await this.deps.switchedOn())) throw Forbidden(BILLING_OFF);
    return keys;
  }

  private async requireSubscription(userId: number): Promise<SubscriptionRow> {
    const current = await this.repo.validSubscriptionOf(userId);
    if (!current) throw NotFound(NO_SUBSCRIPTION);
    return current;
  }

  /** A listed plan and one of its own prices; anything else is one 404. */
  private async purchasable(productId: number, priceId: number): Promise<{ product: ProductRow; price: PriceRow }> {
    const [product, price] = await Promise.all([this.repo.product(productId), this.repo.price(priceId)]);
    if (!product || !price || price.product_id !== product.id || product.hidden === 1) throw NotFound(PLAN_NOT_AVAILABLE);
    return { product, price };
  }

  private async customer(stripe: Stripe, user: { id: number; email: string }): Promise<string> {
    const known = await this.repo.customerOf(user.id);
    if (known) return known;
    const created = await call(() => stripe.customers.create({ email: user.email, metadata: { user_id: String(user.id) } }));
    return this.repo.saveCustomer(user.id, created.id);
  }

  /** The Stripe price for one of ours, made there on first use from our amount. */
  private gatewayPrice(stripe: Stripe, product: ProductRow, price: PriceRow): Promise<string> {
    return ensureStripePrice(stripe, this.repo, product, price);
  }
}
