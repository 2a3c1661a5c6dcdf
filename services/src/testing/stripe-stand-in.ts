import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A local HTTP server speaking the part of Stripe's REST API Kesher uses (form-encoded requests with
 * bracketed keys, JSON answers, Stripe's error body), and a maker of signed webhook deliveries — signed
 * with the stripe library's own test-header helper, so the product's signature check is the real one.
 * Objects follow API version 2025-03-31+ (the period on the subscription's items).
 */
export interface StripeRequest {
  method: string;
  path: string;
  form: Record<string, string>;
  authorization: string | undefined;
}

type Obj = Record<string, unknown>;
export type StandInSession = Obj & { id: string; customer: string | null; form: Record<string, string> };

export interface StripeStandIn {
  apiUrl: string;
  secretKey: string;
  webhookSecret: string;
  requests: StripeRequest[];
  subscriptions: Map<string, Obj>;
  sessions: Map<string, StandInSession>;
  /** The owner pays on Stripe Checkout: the session's subscription exists (trialing with a trial). Answers it. */
  completeCheckout(sessionId: string, nowSeconds: number): Obj;
  /** An event as Stripe sends it, and its signed delivery (body + Stripe-Signature header). */
  event(
    type: string,
    object: Obj,
    options?: { id?: string; created?: number },
  ): { id: string; body: string; signature: string };
  /** Signs a body as Stripe would (or with another secret / an old timestamp, for the refusals). */
  sign(body: string, options?: { secret?: string; timestamp?: number }): string;
  invoice(subscriptionId: string, options: { paid: boolean; amount: number; id?: string }): Obj;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const requests: StripeRequest[] = [];
  const customers = new Map<string, Obj>();
  const sessions = new Map<string, StandInSession>();
  const subscriptions = new Map<string, Obj>();
  const signer = new Stripe(secretKey);

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    response.end(JSON.stringify(body));
  };
  const notFound = (response: ServerResponse, what: string) =>
    send(response, 404, {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
    });
  const metadataOf = (form: Record<string, string>, prefix: string) =>
    Object.fromEntries(
      Object.entries(form).flatMap(([k, v]) =>
        k.startsWith(`${prefix}[`) ? [[k.slice(prefix.length + 1, -1), v]] : [],
      ),
    );

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
    requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      form,
      authorization: request.headers.authorization,
    });
    if (request.headers.authorization !== `Bearer ${secretKey}`)
      return send(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    const parts = url.pathname.split('/').filter(Boolean);
    if (request.method === 'POST' && url.pathname === '/v1/customers') {
      const customer = {
        id: id('cus'),
        object: 'customer',
        email: form.email ?? null,
        metadata: metadataOf(form, 'metadata'),
      };
      customers.set(customer.id, customer);
      return send(response, 200, customer);
    }
    if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      if (form.customer && !customers.has(form.customer)) return notFound(response, `customer: '${form.customer}'`);
      const sessionId = id('cs_test');
      const session = {
        id: sessionId,
        object: 'checkout.session',
        mode: form.mode,
        customer: (form.customer ?? null) as string | null,
        client_reference_id: form.client_reference_id ?? null,
        metadata: metadataOf(form, 'metadata'),
        subscription: null,
        url: `https://checkout.stripe.com/c/pay/${sessionId}`,
        expires_at: Math.floor(Date.now() / 1000) + 24 * 3600,
        form,
      };
      sessions.set(sessionId, session);
      const { form: _f, ...wire } = session;
      return send(response, 200, wire);
    }
    if (request.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      if (!form.customer || !customers.has(form.customer)) return notFound(response, `customer: '${form.customer}'`);
      return send(response, 200, {
        id: id('bps'),
        object: 'billing_portal.session',
        customer: form.customer,
        return_url: form.return_url,
        url: `https://billing.stripe.com/p/session/${id('test')}`,
      });
    }
    if (parts[0] === 'v1' && parts[1] === 'subscriptions' && parts[2]) {
      const subscription = subscriptions.get(parts[2]);
      if (!subscription) return notFound(response, `subscription: '${parts[2]}'`);
      if (request.method === 'GET') return send(response, 200, subscription);
      if (request.method === 'POST') {
        if (form.cancel_at_period_end) subscription.cancel_at_period_end = form.cancel_at_period_end === 'true';
        return send(response, 200, subscription);
      }
      if (request.method === 'DELETE') {
        subscription.status = 'canceled';
        return send(response, 200, subscription);
      }
    }
    return send(response, 404, {
      error: {
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${request.method}: ${url.pathname})`,
      },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const sign = (body: string, options: { secret?: string; timestamp?: number } = {}) =>
    signer.webhooks.generateTestHeaderString({
      payload: body,
      secret: options.secret ?? webhookSecret,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });

  return {
    apiUrl: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    requests,
    subscriptions,
    sessions,
    completeCheckout(sessionId, nowSeconds) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const f = session.form;
      const trialDays = Number(f['subscription_data[trial_period_days]'] ?? 0);
      const interval = f['line_items[0][price_data][recurring][interval]'];
      const end = trialDays ? nowSeconds + trialDays * 86400 : nowSeconds + (interval === 'year' ? 365 : 30) * 86400;
      const subscription = {
        id: id('sub'),
        object: 'subscription',
        customer: session.customer,
        status: trialDays ? 'trialing' : 'active',
        cancel_at_period_end: false,
        trial_end: trialDays ? end : null,
        metadata: metadataOf(f, 'subscription_data[metadata]'),
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              object: 'subscription_item',
              current_period_start: nowSeconds,
              current_period_end: end,
              price: {
                id: id('price'),
                object: 'price',
                currency: f['line_items[0][price_data][currency]'],
                unit_amount: Number(f['line_items[0][price_data][unit_amount]']),
                recurring: { interval },
                metadata: {},
              },
            },
          ],
        },
      };
      subscriptions.set(subscription.id, subscription);
      session.subscription = subscription.id;
      return subscription;
    },
    event(type, object, options = {}) {
      const eventId = options.id ?? id('evt');
      const body = JSON.stringify(
        {
          id: eventId,
          object: 'event',
          api_version: '2026-10-28.endive',
          type,
          created: options.created ?? Math.floor(Date.now() / 1000),
          livemode: false,
          data: { object },
        },
        null,
        2,
      );
      return { id: eventId, body, signature: sign(body) };
    },
    sign,
    invoice(subscriptionId, options) {
      const subscription = subscriptions.get(subscriptionId);
      const invoiceId = options.id ?? id('in');
      return {
        id: invoiceId,
        object: 'invoice',
        customer: subscription?.customer ?? null,
        currency: 'ils',
        amount_paid: options.paid ? options.amount : 0,
        amount_due: options.amount,
        status: options.paid ? 'paid' : 'open',
        invoice_pdf: `https://pay.stripe.com/invoice/${invoiceId}/pdf`,
        lines: { object: 'list', data: [{ description: '1 × Pro plan, monthly' }] },
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: subscriptionId, metadata: (subscription?.metadata as Obj) ?? {} },
        },
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
