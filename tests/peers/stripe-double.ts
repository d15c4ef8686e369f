import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A small stateful Stripe double on 127.0.0.1 for the calls the drive makes,
 * in Stripe's own wire format (form-encoded bracket keys in, JSON out,
 * `{ error: { type, code, message, param } }`, Idempotency-Key replays), so
 * the server runs the real `stripe` client against it (host/port/protocol).
 *
 * It keeps customers, products, prices, Checkout Sessions, subscriptions and
 * invoices. Its hosted checkout page (`/pay/:session`) completes a session
 * like Stripe's: the subscription and a paid invoice are made and the events
 * are signed with the real `stripe.webhooks.generateTestHeaderString`, then
 * sent to the webhook address (or kept in `outbox` for in-process tests).
 * Object shapes are checked against the `stripe` package's types (Pick<…>),
 * so a field that drifts fails `tsc`.
 */

type Params = Record<string, unknown>;
export interface SignedDelivery {
  event: StripeEventShape;
  payload: string;
  header: string;
}
export interface StripeEventShape {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: boolean;
  data: { object: Record<string, unknown> };
}

type CustomerShape = Pick<Stripe.Customer, 'id' | 'object' | 'email' | 'metadata' | 'created'>;
type ProductShape = Pick<Stripe.Product, 'id' | 'object' | 'name' | 'metadata' | 'active'> & { description: string | null };
type PriceShape = Pick<Stripe.Price, 'id' | 'object' | 'product' | 'unit_amount' | 'currency' | 'metadata' | 'active' | 'type'> & {
  recurring: Pick<Stripe.Price.Recurring, 'interval' | 'interval_count'>;
};
type SessionShape = Pick<
  Stripe.Checkout.Session,
  | 'id'
  | 'object'
  | 'mode'
  | 'customer'
  | 'client_reference_id'
  | 'url'
  | 'success_url'
  | 'cancel_url'
  | 'status'
  | 'payment_status'
  | 'subscription'
  | 'metadata'
> & { line_items_price: string; subscription_metadata: Record<string, string> };
type ItemShape = Pick<Stripe.SubscriptionItem, 'id' | 'object' | 'current_period_start' | 'current_period_end' | 'quantity'> & { price: PriceShape };
type SubscriptionShape = Pick<
  Stripe.Subscription,
  'id' | 'object' | 'customer' | 'status' | 'cancel_at_period_end' | 'cancel_at' | 'canceled_at' | 'ended_at' | 'metadata' | 'created'
> & { items: { object: 'list'; data: ItemShape[]; has_more: boolean; url: string } };
type InvoiceShape = Pick<
  Stripe.Invoice,
  'id' | 'object' | 'customer' | 'number' | 'status' | 'amount_paid' | 'amount_due' | 'currency' | 'created' | 'hosted_invoice_url' | 'invoice_pdf'
> & { parent: { type: 'subscription_details'; subscription_details: { subscription: string; metadata: Record<string, string> } } };

class StripeFault extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const missing = (kind: string, id: string, param = 'id') =>
  new StripeFault(404, 'invalid_request_error', `No such ${kind}: '${id}'`, 'resource_missing', param);
const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const DAY = 24 * 60 * 60;
const periodSeconds = (interval: string, count: number) => count * ({ day: 1, week: 7, month: 30, year: 365 }[interval] ?? 30) * DAY;

/** `a[b][0][c]=v` pairs → nested objects; objects keyed 0..n become arrays. */
export function parseStripeForm(body: string): Params {
  const root: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node: Params = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Params;
    });
  }
  const arrays = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    const entries = Object.entries(value as Params).map(([k, v]) => [k, arrays(v)] as const);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
    return Object.fromEntries(entries);
  };
  return arrays(root) as Params;
}

export interface StripeDoubleOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where signed events are POSTed; without one they wait in `outbox`. */
  webhookUrl?: string;
  port?: number;
}

export class StripeDouble {
  readonly customers = new Map<string, CustomerShape>();
  readonly products = new Map<string, ProductShape>();
  readonly prices = new Map<string, PriceShape>();
  readonly sessions = new Map<string, SessionShape>();
  readonly subscriptions = new Map<string, SubscriptionShape>();
  readonly invoices = new Map<string, InvoiceShape>();
  /** Signed events not yet delivered (no webhook address). */
  readonly outbox: SignedDelivery[] = [];
  /** Every event ever made, in order. */
  readonly events: StripeEventShape[] = [];
  /** Calls received, as "METHOD path" (tests check what was asked). */
  readonly calls: string[] = [];
  private readonly idempotent = new Map<string, { status: number; body: string }>();
  private readonly signer = new Stripe('sk_test_signer');
  private server: http.Server | null = null;
  url = '';

  constructor(readonly options: StripeDoubleOptions) {}

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(this.options.port ?? 0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** What the hosted page's Pay button does: subscription, paid invoice, signed events. */
  async completeCheckout(sessionId: string): Promise<SessionShape> {
    const session = this.sessions.get(sessionId);
    if (!session) throw missing('checkout.session', sessionId);
    if (session.status !== 'open') return session;
    const price = this.prices.get(session.line_items_price)!;
    const created = now();
    const subscription: SubscriptionShape = {
      id: id('sub'),
      object: 'subscription',
      customer: session.customer as string,
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      metadata: session.subscription_metadata,
      created,
      items: { object: 'list', data: [this.item(price, created)], has_more: false, url: '/v1/subscription_items' },
    };
    this.subscriptions.set(subscription.id, subscription);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
    const invoice = this.invoice(subscription, price.unit_amount ?? 0, 'paid');
    await this.emit('customer.subscription.created', subscription);
    await this.emit('invoice.paid', invoice);
    await this.emit('checkout.session.completed', session);
    return session;
  }

  /** A renewal payment fails: past due, with the failed invoice. */
  async failPayment(subscriptionId: string): Promise<void> {
    const subscription = this.subscription(subscriptionId);
    subscription.status = 'past_due';
    const invoice = this.invoice(subscription, subscription.items.data[0]!.price.unit_amount ?? 0, 'open');
    await this.emit('invoice.payment_failed', invoice);
    await this.emit('customer.subscription.updated', subscription);
  }

  /** The paid period ends: a cancelled subscription is over, a running one renews. */
  async endPeriod(subscriptionId: string): Promise<void> {
    const subscription = this.subscription(subscriptionId);
    if (subscription.cancel_at_period_end) {
      Object.assign(subscription, { status: 'canceled', ended_at: now() });
      await this.emit('customer.subscription.deleted', subscription);
      return;
    }
    const item = subscription.items.data[0]!;
    item.current_period_start = item.current_period_end;
    item.current_period_end += periodSeconds(item.price.recurring.interval, item.price.recurring.interval_count);
    subscription.status = 'active';
    await this.emit('invoice.paid', this.invoice(subscription, item.price.unit_amount ?? 0, 'paid'));
    await this.emit('customer.subscription.updated', subscription);
  }

  /** Signs any payload as Stripe would (tests post forged, stale or replayed ones). */
  sign(payload: string, options: { secret?: string; timestamp?: number } = {}): string {
    return this.signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? this.options.webhookSecret, timestamp: options.timestamp });
  }

  /** Takes the waiting deliveries (in-process tests post them themselves). */
  drain(): SignedDelivery[] {
    return this.outbox.splice(0, this.outbox.length);
  }

  private subscription(subscriptionId: string): SubscriptionShape {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw missing('subscription', subscriptionId);
    return subscription;
  }

  private item(price: PriceShape, start: number): ItemShape {
    return {
      id: id('si'),
      object: 'subscription_item',
      current_period_start: start,
      current_period_end: start + periodSeconds(price.recurring.interval, price.recurring.interval_count),
      quantity: 1,
      price,
    };
  }

  private invoice(subscription: SubscriptionShape, amount: number, status: 'paid' | 'open'): InvoiceShape {
    const invoiceId = id('in');
    const invoice: InvoiceShape = {
      id: invoiceId,
      object: 'invoice',
      customer: subscription.customer,
      number: `DRV-${String(this.invoices.size + 1).padStart(4, '0')}`,
      status,
      amount_paid: status === 'paid' ? amount : 0,
      amount_due: amount,
      currency: subscription.items.data[0]!.price.currency,
      created: now(),
      hosted_invoice_url: `${this.url}/invoices/${invoiceId}`,
      invoice_pdf: `${this.url}/invoices/${invoiceId}.pdf`,
      parent: { type: 'subscription_details', subscription_details: { subscription: subscription.id, metadata: subscription.metadata } },
    };
    this.invoices.set(invoiceId, invoice);
    return invoice;
  }

  private async emit(type: string, object: object): Promise<void> {
    const event: StripeEventShape = {
      id: id('evt'),
      object: 'event',
      type,
      created: now(),
      api_version: '2026-10-28.endive',
      livemode: false,
      data: { object: structuredClone(object) as Record<string, unknown> },
    };
    this.events.push(event);
    const payload = JSON.stringify(event);
    const delivery = { event, payload, header: this.sign(payload) };
    if (!this.options.webhookUrl) {
      this.outbox.push(delivery);
      return;
    }
    await fetch(this.options.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.header },
      body: payload,
    });
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url ?? '/', this.url);
    const method = request.method ?? 'GET';
    const send = (status: number, body: unknown, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type, 'request-id': id('req') });
      response.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    try {
      if (!url.pathname.startsWith('/v1/')) return await this.page(method, url, parseStripeForm(Buffer.concat(chunks).toString('utf8')), response);
      if (request.headers.authorization !== `Bearer ${this.options.secretKey}`) {
        throw new StripeFault(401, 'invalid_request_error', 'Invalid API Key provided.');
      }
      this.calls.push(`${method} ${url.pathname}`);
      const key = request.headers['idempotency-key'];
      const replay = typeof key === 'string' ? this.idempotent.get(key) : undefined;
      if (replay) return send(replay.status, replay.body);
      const params = method === 'GET' ? Object.fromEntries(url.searchParams) : parseStripeForm(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify(await this.api(method, url.pathname, params));
      if (typeof key === 'string' && method === 'POST') this.idempotent.set(key, { status: 200, body });
      send(200, body);
    } catch (error) {
      if (error instanceof StripeFault) {
        send(error.status, { error: { type: error.type, code: error.code, message: error.message, param: error.param } });
      } else {
        send(500, { error: { type: 'api_error', message: String(error) } });
      }
    }
  }

  private async api(method: string, path: string, p: Params): Promise<unknown> {
    const parts = path.split('/').slice(2);
    // Namespaced resources (checkout/sessions, billing_portal/sessions) are one name.
    if (parts[0] === 'checkout' || parts[0] === 'billing_portal') parts.splice(0, 2, `${parts[0]}/${parts[1]}`);
    const [resource, first, second] = parts;
    const route = `${method} ${resource}${first ? '/:a' : ''}${second ? '/:b' : ''}`;
    const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const metadata = (value: unknown) => (typeof value === 'object' && value !== null ? (value as Record<string, string>) : {});
    switch (route) {
      case 'POST customers': {
        const customer: CustomerShape = { id: id('cus'), object: 'customer', email: str(p.email) ?? null, metadata: metadata(p.metadata), created: now() };
        this.customers.set(customer.id, customer);
        return customer;
      }
      case 'POST products': {
        const product: ProductShape = {
          id: id('prod'),
          object: 'product',
          name: str(p.name) ?? '',
          description: str(p.description) ?? null,
          metadata: metadata(p.metadata),
          active: p.active !== 'false',
        };
        this.products.set(product.id, product);
        return product;
      }
      case 'POST prices': {
        const product = str(p.product) ?? '';
        if (!this.products.has(product)) throw missing('product', product, 'product');
        const recurring = metadata(p.recurring);
        const price: PriceShape = {
          id: id('price'),
          object: 'price',
          product,
          unit_amount: Number(p.unit_amount),
          currency: str(p.currency) ?? 'usd',
          metadata: metadata(p.metadata),
          active: true,
          type: 'recurring',
          recurring: { interval: (recurring.interval ?? 'month') as Stripe.Price.Recurring.Interval, interval_count: Number(recurring.interval_count ?? 1) },
        };
        this.prices.set(price.id, price);
        return price;
      }
      case 'POST products/:a': {
        const product = this.products.get(first!);
        if (!product) throw missing('product', first!);
        if (typeof p.name === 'string') product.name = p.name;
        if (typeof p.description === 'string') product.description = p.description || null;
        if (p.active !== undefined) product.active = p.active === 'true';
        if (p.metadata !== undefined) product.metadata = { ...product.metadata, ...metadata(p.metadata) };
        return product;
      }
      case 'POST prices/:a': {
        // Stripe lets only a few fields of a price change; its amount is not one of them.
        const price = this.prices.get(first!);
        if (!price) throw missing('price', first!);
        if (p.unit_amount !== undefined)
          throw new StripeFault(400, 'invalid_request_error', 'Received unknown parameter: unit_amount', 'parameter_unknown', 'unit_amount');
        if (p.active !== undefined) price.active = p.active === 'true';
        return price;
      }
      case 'POST checkout/sessions': {
        const customer = str(p.customer) ?? '';
        if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
        const items = Array.isArray(p.line_items) ? (p.line_items as Params[]) : [];
        const price = str(items[0]?.price) ?? '';
        if (!this.prices.has(price)) throw missing('price', price, 'line_items[0][price]');
        if (!this.prices.get(price)!.active)
          throw new StripeFault(400, 'invalid_request_error', `The price specified is inactive.`, 'price_inactive', 'line_items[0][price]');
        if (p.mode !== 'subscription')
          throw new StripeFault(400, 'invalid_request_error', 'Only subscription mode is supported here.', 'parameter_invalid', 'mode');
        const sessionId = id('cs_test');
        const session: SessionShape = {
          id: sessionId,
          object: 'checkout.session',
          mode: 'subscription',
          customer,
          client_reference_id: str(p.client_reference_id) ?? null,
          url: `${this.url}/pay/${sessionId}`,
          success_url: str(p.success_url) ?? null,
          cancel_url: str(p.cancel_url) ?? null,
          status: 'open',
          payment_status: 'unpaid',
          subscription: null,
          metadata: metadata(p.metadata),
          line_items_price: price,
          subscription_metadata: metadata(metadata(p.subscription_data).metadata),
        };
        this.sessions.set(session.id, session);
        return session;
      }
      case 'GET checkout/sessions/:a': {
        const session = this.sessions.get(first!);
        if (!session) throw missing('checkout.session', first!);
        return session;
      }
      case 'GET subscriptions/:a':
        return this.subscription(first!);
      case 'POST subscriptions/:a': {
        const subscription = this.subscription(first!);
        if (subscription.status === 'canceled') throw new StripeFault(400, 'invalid_request_error', 'A canceled subscription can only update its metadata.');
        if (p.cancel_at_period_end !== undefined) {
          subscription.cancel_at_period_end = p.cancel_at_period_end === 'true';
          subscription.canceled_at = subscription.cancel_at_period_end ? now() : null;
          subscription.cancel_at = subscription.cancel_at_period_end ? subscription.items.data[0]!.current_period_end : null;
        }
        const items = Array.isArray(p.items) ? (p.items as Params[]) : [];
        for (const change of items) {
          const item = subscription.items.data.find((candidate) => candidate.id === change.id);
          if (!item) throw missing('subscription_item', str(change.id) ?? '', 'items[0][id]');
          const price = this.prices.get(str(change.price) ?? '');
          if (!price) throw missing('price', str(change.price) ?? '', 'items[0][price]');
          const prorated = p.proration_behavior !== 'none';
          Object.assign(item, { price });
          if (prorated) this.invoice(subscription, price.unit_amount ?? 0, 'paid');
        }
        await this.emit('customer.subscription.updated', subscription);
        return subscription;
      }
      case 'DELETE subscriptions/:a': {
        const subscription = this.subscription(first!);
        Object.assign(subscription, { status: 'canceled', ended_at: now(), canceled_at: now() });
        await this.emit('customer.subscription.deleted', subscription);
        return subscription;
      }
      case 'GET invoices': {
        const customer = str(p.customer);
        const data = [...this.invoices.values()].filter((invoice) => !customer || invoice.customer === customer).reverse();
        return { object: 'list', data: data.slice(0, Number(p.limit ?? 10)), has_more: false, url: '/v1/invoices' };
      }
      case 'POST billing_portal/sessions': {
        const customer = str(p.customer) ?? '';
        if (!this.customers.has(customer)) throw missing('customer', customer, 'customer');
        const sessionId = id('bps');
        return {
          id: sessionId,
          object: 'billing_portal.session',
          customer,
          return_url: str(p.return_url) ?? null,
          url: `${this.url}/portal/${sessionId}?return=${encodeURIComponent(str(p.return_url) ?? '')}`,
        };
      }
      default:
        throw new StripeFault(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    }
  }

  /** The hosted pages: checkout (Pay or Cancel), the billing portal, invoices. */
  private async page(method: string, url: URL, form: Params, response: http.ServerResponse): Promise<void> {
    const html = (title: string, body: string) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(`<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`);
    };
    const redirect = (to: string) => {
      response.writeHead(303, { location: to });
      response.end();
    };
    const [, kind, target] = url.pathname.split('/');
    const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    if (kind === 'pay' && target) {
      const session = this.sessions.get(target);
      if (!session) throw missing('checkout.session', target);
      if (method === 'POST' && form.action === 'cancel') return redirect(session.cancel_url ?? '/');
      if (method === 'POST') {
        await this.completeCheckout(session.id);
        return redirect((session.success_url ?? '/').replace('{CHECKOUT_SESSION_ID}', session.id));
      }
      const price = this.prices.get(session.line_items_price)!;
      const product = this.products.get(price.product as string)!;
      const amount = `${((price.unit_amount ?? 0) / 100).toFixed(2)} ${price.currency.toUpperCase()} / ${price.recurring.interval}`;
      return html(
        'Test checkout',
        `<p>${escape(product.name)}: ${escape(amount)}</p><p>Card 4242 4242 4242 4242</p>` +
          `<form method="post"><button name="action" value="pay">Pay</button> <button name="action" value="cancel">Cancel</button></form>`,
      );
    }
    if (kind === 'portal') {
      const back = url.searchParams.get('return') ?? '/';
      return html('Test billing portal', `<p>Payment method: Visa •••• 4242</p><a href="${escape(back)}">Return</a>`);
    }
    if (kind === 'invoices' && target) return html(`Invoice ${escape(target)}`, '<p>Paid.</p>');
    throw new StripeFault(404, 'invalid_request_error', 'Not found.');
  }
}

/** Starts a double on a free (or given) loopback port. */
export function startStripeDouble(options: StripeDoubleOptions): Promise<StripeDouble> {
  return new StripeDouble(options).start();
}
