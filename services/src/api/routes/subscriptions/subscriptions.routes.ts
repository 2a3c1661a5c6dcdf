import formbody from '@fastify/formbody';
import {
  billingMessages,
  BillingPortalRequestSchema,
  BillingPortalResponseSchema,
  CancelRequestSchema,
  CheckoutRequestSchema,
  CheckoutResponseSchema,
  ErrorBodySchema,
  PaymentHistoryQuerySchema,
  PaymentHistorySchema,
  PlanListSchema,
  SubscriptionStatusSchema,
  SubscriptionUsageSchema,
  TranzilaMockFormSchema,
  TranzilaMockResponseSchema,
  type UsageResponse,
} from '@kesher/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BillingError,
  type BillingService,
  cardExpired,
  cardMessages,
  type StripeWebhooks,
  unknownTestCard,
  WebhookSignatureError,
} from '../../../billing/index.js';
import type { AllPosition } from '@kesher/contracts';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface SubscriptionRoutesDeps {
  billing: BillingService;
  usage: (ownerId: string) => Promise<UsageResponse>;
  /** Null with the test payments (no Stripe key): the webhook route answers 404. */
  stripeWebhooks: StripeWebhooks | null;
  awaitReadModels: (position: AllPosition, eventTypes?: readonly string[]) => Promise<boolean>;
  emailOf: (ownerId: string) => Promise<string | null>;
  clock: () => Date;
}

const asApiError = (error: unknown) =>
  error instanceof BillingError ? new ApiError(error.statusCode, error.message) : error;

/**
 * Plans, the owner's subscription, checkout, the billing portal, cancelling, payment history and usage
 * (spec part 2 §7 Subscriptions), plus what the payments services call back: the test payment page's form
 * (`tranzila-mock`, form-encoded) and Stripe's webhooks (raw body, signature checked). Plans are public
 * (the pricing page shows them signed out); the rest is the signed-in owner's own.
 */
export const subscriptionRoutes =
  (deps: SubscriptionRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    // The test payment page posts a form; only this plugin's routes read form bodies.
    await app.register(formbody, { bodyLimit: 16 * 1024 });

    app.get(
      '/subscriptions/plans',
      {
        schema: {
          summary: 'The plans and their prices (minor units), limits and features',
          response: { 200: PlanListSchema },
        },
      },
      async () => deps.billing.plans(),
    );

    app.get(
      '/subscriptions/status',
      { schema: { summary: "The owner's plan and subscription", response: { 200: SubscriptionStatusSchema } } },
      async (request) => deps.billing.status(requireAccount(request).id),
    );

    app.post(
      '/subscriptions/checkout',
      {
        schema: {
          summary: 'Opens a checkout for a paid plan; answers the address to send the owner to',
          body: CheckoutRequestSchema,
          response: { 200: CheckoutResponseSchema },
        },
      },
      async (request) => deps.billing.checkout(requireAccount(request), request.body),
    );

    app.post(
      '/subscriptions/billing-portal',
      {
        schema: {
          summary:
            "The payments service's portal (403 FREE_PLAN_USER on the free plan; 400 NO_STRIPE_CUSTOMER without a customer)",
          body: BillingPortalRequestSchema.optional(),
          response: { 200: BillingPortalResponseSchema },
        },
      },
      async (request) => {
        try {
          return await deps.billing.portal(requireAccount(request).id, request.body?.return_url);
        } catch (error) {
          throw asApiError(error);
        }
      },
    );

    app.post(
      '/subscriptions/cancel',
      {
        schema: {
          summary: 'Cancels at the period end (default; access continues) or at once',
          body: CancelRequestSchema.optional(),
          response: { 200: SubscriptionStatusSchema },
        },
      },
      async (request) => deps.billing.cancel(requireAccount(request).id, request.body?.immediately ?? false),
    );

    app.get(
      '/subscriptions/payment-history',
      {
        schema: {
          summary: "The owner's payments, newest first (default 5), with receipt or invoice PDF links",
          querystring: PaymentHistoryQuerySchema,
          response: { 200: PaymentHistorySchema },
        },
      },
      async (request) => deps.billing.history(requireAccount(request).id, request.query.limit),
    );

    app.get(
      '/subscriptions/usage',
      {
        schema: { summary: "The owner's usage against the plan's limits", response: { 200: SubscriptionUsageSchema } },
      },
      async (request) => deps.usage(requireAccount(request).id),
    );

    app.post(
      '/subscriptions/tranzila-mock',
      {
        schema: {
          summary:
            'The test payment page (form-encoded): 4580458045804580 pays, 4000000000000002 is declined; any other number or a bad field is a 422 naming it',
          consumes: ['application/x-www-form-urlencoded'],
          body: TranzilaMockFormSchema,
          response: { 200: TranzilaMockResponseSchema, 422: ErrorBodySchema },
        },
      },
      async (request, reply) => {
        if (cardExpired(request.body.expiry, deps.clock())) {
          return reply
            .status(422)
            .send({ detail: [{ loc: ['body', 'expiry'], msg: cardMessages.expired, type: 'value_error' }] });
        }
        if (unknownTestCard(request.body.card_number)) {
          return reply
            .status(422)
            .send({ detail: [{ loc: ['body', 'card_number'], msg: cardMessages.unknownCard, type: 'value_error' }] });
        }
        return deps.billing.payTest(request.body, request.account);
      },
    );

    app.get(
      '/subscriptions/receipts/:file',
      {
        schema: {
          summary: "A test payment's receipt (PDF); the link from payment history is the owner's alone",
          params: z.object({ file: z.string().regex(/^[\w-]{1,100}\.pdf$/) }),
          querystring: z.object({ sig: z.string().max(200) }),
        },
      },
      async (request, reply) => {
        const pdf = await deps.billing.receipt(request.params.file.slice(0, -4), request.query.sig, deps.emailOf);
        if (!pdf) throw new ApiError(404, billingMessages.receiptNotFound);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="kesher-receipt-${request.params.file}"`)
          .header('cache-control', 'private, no-store')
          .send(Buffer.from(pdf));
      },
    );

    // Stripe signs the exact text it sent: this route alone reads its JSON body unparsed. As a string, not
    // a Buffer: the request-wide safe-text check walks a Buffer byte by byte as an object's fields, which
    // cost more than everything else a delivery does (the text is UTF-8 JSON, and signed as such).
    await app.register(async (raw) => {
      raw.removeContentTypeParser('application/json');
      raw.addContentTypeParser(
        'application/json',
        { parseAs: 'string', bodyLimit: 1024 * 1024 },
        (_request, body, done) => done(null, body),
      );
      raw.post(
        '/subscriptions/webhook',
        {
          schema: {
            summary:
              "Stripe's webhooks (Stripe-Signature checked; replays and out-of-order deliveries change nothing twice)",
            hide: false,
          },
        },
        async (request) => {
          if (!deps.stripeWebhooks) throw new ApiError(404, 'Not Found');
          if (typeof request.body !== 'string') throw new ApiError(400, 'Expected a JSON body.');
          const signature = request.headers['stripe-signature'];
          try {
            // Answered once the delivery is durably recorded (appended to the log): that is all Stripe needs,
            // and whatever it changes reaches the billing read model a moment later on its own. Waiting for
            // the read model here made every delivery queue behind the projector (issue 14's figures).
            await deps.stripeWebhooks.receive(request.body, typeof signature === 'string' ? signature : undefined);
            return { received: true };
          } catch (error) {
            if (error instanceof WebhookSignatureError) throw new ApiError(400, error.message);
            if (error instanceof z.ZodError) throw new ApiError(400, 'Malformed Stripe object.');
            throw error;
          }
        },
      );
    });
  };
