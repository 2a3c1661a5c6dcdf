import { comparePositions, type AllPosition } from '@kesher/contracts';
import { billingProjection } from '@kesher/projections/billing/billing.projection';
import { billingQueries } from '@kesher/projections/billing/billing.queries';
import { loadAuthSecret } from '../identity/index.js';
import { createPlanBook, type PlanOf } from '../plans/index.js';
import type { CommandHandler } from '../platform/commands/command-handler.js';
import type { Config } from '../platform/config/config.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import type { Sql } from '../platform/sql/sql.port.js';
import { createBillingService } from './billing-service.js';
import { createReceiptLinks } from './receipt-links.js';
import { createStripeClient, createStripePayments } from './stripe-payments.adapter.js';
import { createStripeWebhooks } from './stripe-webhooks.js';
import { createSubscriptionWriter } from './subscription-writer.js';
import { createTestPayments } from './test-payments.adapter.js';
import { createUsageReport } from './usage-report.js';

/** The billing read model's lookups the plan book needs (wired before the rest, which needs the plan book). */
export const subscriptionLookup = (sql: Sql) => billingQueries(sql).subscriptionOf;

/**
 * Billing for the API: Stripe when STRIPE_SECRET_KEY is set (its webhooks need STRIPE_WEBHOOK_SECRET),
 * else the built-in test payments. The rest of Kesher sees only the plan book. What it returns is what the
 * subscription routes take; the types meet where compose-api hands it over (a module does not import routes).
 */
export function composeBilling(deps: {
  config: Config;
  sql: Sql;
  handle: CommandHandler;
  eventStore: EventStore;
  planOf: PlanOf;
  awaitReadModels: (position: AllPosition, eventTypes?: readonly string[]) => Promise<boolean>;
  clock: () => Date;
  publicUrl: string;
  storageUsed: (ownerId: string) => Promise<number>;
  settled?: (ownerId: string) => Promise<unknown>;
}) {
  const { config } = deps;
  const billing = billingQueries(deps.sql);
  const stripe = config.STRIPE_SECRET_KEY
    ? createStripeClient({ secretKey: config.STRIPE_SECRET_KEY, apiUrl: config.STRIPE_API_URL })
    : null;
  const stripePayments = stripe ? createStripePayments({ stripe }) : null;
  const payments = stripePayments ?? createTestPayments({ clock: deps.clock });
  const service = createBillingService({
    handle: deps.handle,
    eventStore: deps.eventStore,
    billing,
    payments,
    planOf: deps.planOf,
    receipts: createReceiptLinks({ secret: loadAuthSecret(config) }),
    awaitReadModels: deps.awaitReadModels,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
  });
  const stripeWebhooks =
    stripe && stripePayments && config.STRIPE_WEBHOOK_SECRET
      ? createStripeWebhooks({
          stripe,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          writer: createSubscriptionWriter({ eventStore: deps.eventStore }),
          eventStore: deps.eventStore,
          retrieveSubscription: (id) => stripePayments.retrieveSubscription(id),
          ownerOfCustomer: billing.ownerOfCustomer,
          settled: async (newest) => {
            const head = await deps.eventStore.headPosition();
            return deps.awaitReadModels(newest && comparePositions(newest, head) > 0 ? newest : head, [
              'StripeWebhookReceived',
            ]);
          },
          clock: deps.clock,
        })
      : null;
  return {
    billing: service,
    usage: createUsageReport({
      readDb: deps.sql,
      planOf: deps.planOf,
      storageUsed: deps.storageUsed,
      clock: deps.clock,
      settled: deps.settled,
    }),
    stripeWebhooks,
    awaitReadModels: deps.awaitReadModels,
    emailOf: async (ownerId: string) =>
      (await deps.sql.query<{ email: string }>(`SELECT email FROM accounts WHERE id = $1`, [ownerId])).rows[0]?.email ??
      null,
    clock: deps.clock,
  };
}

/**
 * The billing read model's version as this process knows it: the checkpoint its own projector reports
 * after each committed batch (undefined when the projector runs elsewhere or has not started: then every
 * limit check reads the row).
 */
export const billingVersion = (progress: { position(name: string): AllPosition | undefined } | undefined) => () => {
  const at = progress?.position(billingProjection.name);
  return at === undefined ? undefined : `${at.commit}:${at.prepare}`;
};

/** The plan book every process enforces limits with: the owner's subscription from the billing read model. */
export const livePlanBook = (
  platform: { config: Config; sql: Sql; projector?: { progress: { position(name: string): AllPosition | undefined } } },
  clock: () => Date = () => new Date(),
) =>
  createPlanBook(platform.config, {
    subscriptionOf: subscriptionLookup(platform.sql),
    clock,
    version: billingVersion(platform.projector?.progress),
  });
