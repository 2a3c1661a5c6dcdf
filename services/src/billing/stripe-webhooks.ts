import { comparePositions, CurrencySchema, streamIds, type AllPosition } from '@kesher/contracts';
import type Stripe from 'stripe';
import type { StripeEventInfo, SubscriptionCommand } from '../domain/subscription/subscription.decider.js';
import { factStream, handleCommand, type CommandContext } from '../platform/commands/command-handler.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import type { SubscriptionWriter } from './subscription-writer.js';
import {
  idOf,
  invoiceSubscription,
  snapshotOf,
  StripeCheckoutSessionSchema,
  StripeEventSchema,
  StripeInvoiceSchema,
  StripeSubscriptionSchema,
  type StripeSubscription,
} from './stripe-objects.js';

/** A webhook whose signature is missing, forged or too old: answered 400, nothing recorded. */
export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Stripe's default tolerance: a signed timestamp older than five minutes is a replay. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface StripeWebhookDeps {
  stripe: Stripe;
  webhookSecret: string;
  /** Decides on the owner's subscription stream (remembering its state between deliveries). */
  writer: SubscriptionWriter;
  eventStore: EventStore;
  retrieveSubscription: (id: string) => Promise<StripeSubscription>;
  /** The owner of a Stripe customer, from the billing read model. */
  ownerOfCustomer: (customerId: string) => Promise<string | null>;
  /**
   * Resolves once the billing read model has applied the log up to `newest` (what this process recorded
   * last) and up to the log's head. Webhooks are answered before the read model applies them, so a
   * customer linked by the delivery just before may not be there yet: an unknown customer is looked up
   * once more after this before being recorded as unknown.
   */
  settled?: (newest: AllPosition | undefined) => Promise<unknown>;
  clock: () => Date;
}

type Routed = {
  ownerId: string | null;
  customerId: string | null;
  command: ((ownerId: string) => SubscriptionCommand) | null;
  why?: string;
};

/**
 * Stripe's webhooks, verified with the library's signature check, recorded as events and applied on the
 * owner's subscription stream. Each is applied once: the decider remembers the Stripe event ids it has
 * seen, and the append's expected revision makes two deliveries at once meet in order. A subscription
 * snapshot older than the one applied is recorded and not applied (Stripe does not promise order). A
 * webhook about no customer Kesher knows is recorded on its own stream and ignored.
 */
export function createStripeWebhooks(deps: StripeWebhookDeps) {
  // The newest log position this process recorded a delivery at. The log's head alone would not do: it
  // is where every older transaction on the database server has ended, which may be behind our append.
  let newest: AllPosition | undefined;
  const recorded = (position: AllPosition | undefined) => {
    if (position && (!newest || comparePositions(position, newest) > 0)) newest = position;
    return position;
  };
  function verify(rawBody: string | Buffer, signature: string | undefined) {
    if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header.');
    try {
      const event = deps.stripe.webhooks.constructEvent(
        rawBody,
        signature,
        deps.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
      return StripeEventSchema.parse(event);
    } catch (error) {
      throw new WebhookSignatureError(
        error instanceof Error && error.name === 'ZodError' ? 'Malformed Stripe event.' : 'Invalid Stripe signature.',
      );
    }
  }

  async function route(event: ReturnType<typeof verify>): Promise<Routed> {
    const info: StripeEventInfo = { stripeEventId: event.id, type: event.type, created: event.created };
    const object = event.data.object;
    const owner = async (named: string | null | undefined, customerId: string | null) => {
      if (named || !customerId) return named ?? null;
      const found = await deps.ownerOfCustomer(customerId);
      if (found || !deps.settled) return found;
      await deps.settled(newest);
      return deps.ownerOfCustomer(customerId);
    };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = StripeCheckoutSessionSchema.parse(object);
        const subscriptionId = idOf(session.subscription);
        const customerId = idOf(session.customer);
        const ownerId = await owner(session.client_reference_id ?? session.metadata?.owner_id, customerId);
        if (!subscriptionId) return { ownerId, customerId, command: null, why: 'not a subscription checkout' };
        // The session does not say the subscription's state: ask Stripe for it now (the newest there is).
        const snapshot = snapshotOf(await deps.retrieveSubscription(subscriptionId), session.id);
        return {
          ownerId,
          customerId,
          command: (ownerId) => ({ type: 'ApplyStripeSubscription', data: { ownerId, event: info, snapshot } }),
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
      case 'customer.subscription.paused':
      case 'customer.subscription.resumed': {
        const subscription = StripeSubscriptionSchema.parse(object);
        const snapshot = snapshotOf(subscription, null);
        const ownerId = await owner(subscription.metadata?.owner_id, snapshot.customerId);
        return {
          ownerId,
          customerId: snapshot.customerId,
          command: (ownerId) => ({ type: 'ApplyStripeSubscription', data: { ownerId, event: info, snapshot } }),
        };
      }
      case 'invoice.paid':
      case 'invoice.payment_succeeded':
      case 'invoice.payment_failed': {
        const invoice = StripeInvoiceSchema.parse(object);
        const customerId = idOf(invoice.customer);
        const { subscriptionId, ownerId: named } = invoiceSubscription(invoice);
        const ownerId = await owner(named, customerId);
        const currency = CurrencySchema.safeParse(invoice.currency.toUpperCase());
        if (!currency.success)
          return { ownerId, customerId, command: null, why: `currency ${invoice.currency} is not one Kesher bills in` };
        const paid = event.type !== 'invoice.payment_failed';
        const facts = {
          paymentId: invoice.id,
          description: (invoice.description ?? invoice.lines?.data[0]?.description ?? 'Subscription').slice(0, 500),
          amount: (paid ? invoice.amount_paid : invoice.amount_due) ?? 0,
          currency: currency.data,
          subscriptionId,
        };
        const payment = paid
          ? { ...facts, paid: true as const, invoicePdf: invoice.invoice_pdf ?? null }
          : {
              ...facts,
              paid: false as const,
              reason: (invoice.last_finalization_error?.message ?? 'The payment failed.').slice(0, 500),
            };
        return {
          ownerId,
          customerId,
          command: (ownerId) => ({ type: 'ApplyStripePayment', data: { ownerId, customerId, event: info, payment } }),
        };
      }
      default:
        return { ownerId: null, customerId: null, command: null, why: 'an event type Kesher does not act on' };
    }
  }

  /** Recorded once, on the Stripe event's own stream; a replay finds it there and records nothing. */
  async function recordIgnored(
    event: ReturnType<typeof verify>,
    routed: Routed,
    outcome: string,
  ): Promise<AllPosition | undefined> {
    const context: CommandContext = {
      actor: { kind: 'system', id: 'stripe' },
      correlationId: event.id,
      causationId: event.id,
      now: deps.clock(),
    };
    const received = {
      stripeEventId: event.id,
      type: event.type,
      created: event.created,
      ownerId: routed.ownerId,
      customerId: routed.customerId,
      applied: false,
      outcome,
    };
    const handled = await handleCommand(
      deps.eventStore,
      factStream,
      streamIds.stripeEvent(event.id),
      () => [{ type: 'StripeWebhookReceived' as const, data: received }],
      context,
      { expected: 'no_stream' },
    );
    return recorded(handled.appended?.position);
  }

  return {
    /** Verifies and applies one delivery; answers the log position of what it recorded (undefined: nothing new). */
    async receive(
      rawBody: string | Buffer,
      signature: string | undefined,
    ): Promise<{ position?: AllPosition; ownerId: string | null }> {
      const event = verify(rawBody, signature);
      const routed = await route(event);
      if (!routed.command)
        return { position: await recordIgnored(event, routed, routed.why ?? 'ignored'), ownerId: null };
      if (!routed.ownerId)
        return {
          position: await recordIgnored(event, routed, 'unknown customer: recorded and ignored'),
          ownerId: null,
        };
      const context: CommandContext = {
        actor: { kind: 'system', id: 'stripe' },
        correlationId: event.id,
        causationId: event.id,
        now: deps.clock(),
      };
      const command = routed.command(routed.ownerId);
      // Deliveries for one owner (Stripe retries, several events of one checkout) are decided one after
      // the other; a replay finds its Stripe event id in the owner's state and appends nothing.
      const result = await deps.writer.apply(routed.ownerId, command, context);
      return { position: recorded(result.appended?.position), ownerId: routed.ownerId };
    },
  };
}

export type StripeWebhooks = ReturnType<typeof createStripeWebhooks>;
