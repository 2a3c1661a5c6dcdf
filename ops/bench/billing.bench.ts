/**
 * Billing benchmarks (issue 14): Kesher in one process on the real Postgres (API, projector; in-process
 * bus) with Stripe's API played by the local stand-in. Webhooks are signed with the stripe library's
 * test-header helper and posted over real HTTP, as Stripe posts them.
 *
 * - webhook_p99_ms: a signed `customer.subscription.updated` posted → the owner's subscription read model
 *   shows the change (the route answers once the delivery is recorded — webhook_ack_* — and the bench then
 *   waits for the billing projection to pass the log's head and reads the row to confirm).
 * - webhooks_per_s: 2,000 signed `invoice.paid` deliveries, 20 % of them repeats of earlier ones (Stripe's
 *   retries), shuffled, 32 in flight, over 100 owners; then every effect is counted: one payment per
 *   invoice, one record per Stripe event (`double_effects` must be 0). webhooks_per_s is the rate Stripe
 *   gets its 200s at (recorded durably); webhooks_applied_per_s runs until the billing read model has all.
 * - limit_check_overhead_ms_p95: what plan enforcement adds to creating an assistant or posting a
 *   message — the plan book's answer for an owner (the subscription read model's row, lapse check), for a
 *   paid and a free owner alike, as the limit checks call it.
 *
 *   make bench-billing   → bench-results/billing.json
 */
import { performance } from 'node:perf_hooks';
import { plans } from '@kesher/contracts';
import { billingQueries } from '@kesher/projections/billing/billing.queries';
import { livePlanBook } from '@kesher/services/billing/compose-billing';
import { createPlanBook } from '@kesher/services/plans/plan-book';
import { createApiHarness } from '@kesher/services/testing/api-harness';
import { startStripeStandIn } from '@kesher/services/testing/stripe-stand-in';
import { peakRssMb, percentile, round, writeResults } from './bench-kit.js';
import { freePort } from '@kesher/services/testing/processes';

const OWNERS = Number(process.env.BENCH_BILLING_OWNERS ?? 100);
const LATENCY_SAMPLES = Number(process.env.BENCH_BILLING_LATENCY ?? 200);
const FLOOD = Number(process.env.BENCH_BILLING_DELIVERIES ?? 2000);
const DUPLICATE_SHARE = 0.2;
const FLOOD_IN_FLIGHT = 32;
const LIMIT_CHECKS = 3000;

async function pool<T>(items: readonly T[], inFlight: number, work: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}

const stripe = await startStripeStandIn();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const h = await createApiHarness({
  env: {
    STRIPE_SECRET_KEY: stripe.secretKey,
    STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
    STRIPE_API_URL: stripe.apiUrl,
    PUBLIC_URL: base,
  },
});
await h.app.listen({ port, host: '127.0.0.1' });

try {
  const webhook = `${base}/api/v1/subscriptions/webhook`;
  async function deliver(delivery: { body: string; signature: string }) {
    const response = await fetch(webhook, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': delivery.signature },
      body: delivery.body,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
  }
  const billing = billingQueries(h.platform.sql);
  const now = () => Math.floor(Date.now() / 1000);

  // Owners with a Stripe subscription, announced by Stripe's customer.subscription.created (the owner in
  // its metadata, as checkout puts it there). Accounts are not needed for webhooks: registering hundreds
  // would only meet the sign-up rate limit.
  const owners: { accountId: string; subscription: Record<string, unknown>; created: number }[] = [];
  await pool(
    Array.from({ length: OWNERS }, (_, i) => i),
    8,
    async (i) => {
      const accountId = `bench-owner-${i}-${Math.random().toString(36).slice(2, 8)}`;
      const t = now();
      const subscription: Record<string, unknown> = {
        id: `sub_bench_${i}_${Math.random().toString(36).slice(2, 8)}`,
        object: 'subscription',
        customer: `cus_bench_${i}`,
        status: 'active',
        cancel_at_period_end: false,
        trial_end: null,
        metadata: { owner_id: accountId, tier: 'PRO', billing_period: 'monthly' },
        items: {
          object: 'list',
          data: [
            {
              current_period_start: t,
              current_period_end: t + 30 * 86400,
              price: { currency: 'ils', unit_amount: plans.PRO.price_monthly, recurring: { interval: 'month' } },
            },
          ],
        },
      };
      stripe.subscriptions.set(subscription.id as string, subscription);
      await deliver(stripe.event('customer.subscription.created', subscription, { created: t }));
      owners.push({ accountId, subscription, created: t });
    },
  );

  // Latency: each delivery flips the owner's cancel-at-period-end; timed until the read model shows it.
  const latencies: number[] = [];
  const acks: number[] = [];
  const progress = h.platform.projector.progress;
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const owner = owners[i % owners.length]!;
    const cancel = !(owner.subscription.cancel_at_period_end as boolean);
    owner.subscription.cancel_at_period_end = cancel;
    owner.created += 1;
    const delivery = stripe.event(
      'customer.subscription.updated',
      { ...owner.subscription, status: 'active' },
      { created: owner.created },
    );
    const started = performance.now();
    await deliver(delivery);
    acks.push(performance.now() - started);
    // The 200 comes once the delivery is recorded; the read model applies it a moment later: wait for the
    // projector to pass what the log holds now, then read the row to confirm (again on each move).
    const head = await h.platform.eventStore.headPosition();
    await progress.waitFor(['billing'], head, 5000);
    for (;;) {
      const row = await billing.subscriptionOf(owner.accountId);
      if (row?.cancel_at_period_end === cancel) break;
      await progress.waitForMove('billing', progress.position('billing'), 50);
    }
    latencies.push(performance.now() - started);
  }

  // Throughput with Stripe's retries: 20 % of deliveries repeat an earlier one.
  const unique = Math.round(FLOOD * (1 - DUPLICATE_SHARE));
  const originals = Array.from({ length: unique }, (_, i) => {
    const owner = owners[i % owners.length]!;
    return stripe.event(
      'invoice.paid',
      stripe.invoice(owner.subscription.id as string, {
        paid: true,
        amount: plans.PRO.price_monthly,
        id: `in_bench_${i}`,
      }),
    );
  });
  const repeats = Array.from({ length: FLOOD - unique }, (_, i) => originals[(i * 7) % unique]!);
  const all = [...originals, ...repeats].sort(() => Math.random() - 0.5);
  const floodStarted = performance.now();
  await pool(all, FLOOD_IN_FLIGHT, async (delivery) => deliver(delivery));
  const floodSeconds = (performance.now() - floodStarted) / 1000;
  // Sustained means the read model keeps up too: the flood counts as applied once the billing read model
  // shows every invoice's payment (counted on each move of its checkpoint; at most a minute). The log's
  // head is no help here: Postgres' visibility horizon is shared with every other database on the server.
  const paymentsSeen = async () =>
    Number(
      (
        await h.platform.sql.query<{ n: string }>(
          `SELECT count(*) AS n FROM billing_payments WHERE payment_id LIKE 'in_bench_%'`,
        )
      ).rows[0]!.n,
    );
  let payments = await paymentsSeen();
  while (payments < unique && performance.now() - floodStarted < 60_000 + floodSeconds * 1000) {
    await progress.waitForMove('billing', progress.position('billing'), 100);
    payments = await paymentsSeen();
  }
  const appliedSeconds = (performance.now() - floodStarted) / 1000;
  // Late doubles would show after the count first reached `unique`: give the projector a last moment.
  await new Promise((resolve) => setTimeout(resolve, 500));
  payments = await paymentsSeen();
  const ids = originals.map((o) => o.id);
  const recorded = (await h.platform.eventStore.readAll({ maxCount: 1_000_000 })).events.filter(
    (e) => e.type === 'StripeWebhookReceived' && ids.includes((e.data as { stripeEventId: string }).stripeEventId),
  );
  const doubleEffects = Math.max(0, payments - unique) + Math.max(0, recorded.length - unique);
  const missing = Math.max(0, unique - payments);

  // Limit check overhead: the plan book as the limit checks call it (a paid owner, a free owner).
  const planOf = livePlanBook(h.platform);
  const free = { accountId: 'bench-free-owner' };
  const checks: number[] = [];
  for (let i = 0; i < 200; i++) await planOf(owners[i % owners.length]!.accountId);
  for (let i = 0; i < LIMIT_CHECKS; i++) {
    const ownerId = i % 2 === 0 ? owners[i % owners.length]!.accountId : free.accountId;
    const started = performance.now();
    const plan = await planOf(ownerId);
    checks.push(performance.now() - started);
    if ((i % 2 === 0) !== (plan.tier === 'PRO')) throw new Error(`wrong plan for ${ownerId}: ${plan.tier}`);
  }

  // The same without the plan book's versioned cache (every check reads the row), for comparison.
  const uncachedPlanOf = createPlanBook(h.platform.config, {
    subscriptionOf: billing.subscriptionOf,
    clock: () => new Date(),
  });
  const uncached: number[] = [];
  for (let i = 0; i < LIMIT_CHECKS / 3; i++) {
    const started = performance.now();
    await uncachedPlanOf(i % 2 === 0 ? owners[i % owners.length]!.accountId : free.accountId);
    uncached.push(performance.now() - started);
  }
  uncached.sort((a, b) => a - b);

  latencies.sort((a, b) => a - b);
  acks.sort((a, b) => a - b);
  checks.sort((a, b) => a - b);
  const results = {
    setup: `one process (API, projector; in-process bus) on Postgres; Stripe API stand-in; ${OWNERS} owners with a Stripe subscription (announced by customer.subscription.created); webhooks signed with stripe.webhooks.generateTestHeaderString, posted over HTTP`,
    webhook_p50_ms: round(percentile(latencies, 50)),
    webhook_p99_ms: round(percentile(latencies, 99)),
    webhook_goal_p99_ms: 50,
    webhook_ack_p50_ms: round(percentile(acks, 50)),
    webhook_ack_p99_ms: round(percentile(acks, 99)),
    webhooks_per_s: round(FLOOD / floodSeconds),
    webhooks_applied_per_s: round(FLOOD / appliedSeconds),
    webhooks_goal_per_s: 1000,
    webhooks_delivered: FLOOD,
    webhooks_duplicates: FLOOD - unique,
    double_effects: doubleEffects,
    missing_effects: missing,
    limit_check_overhead_ms_p50: round(percentile(checks, 50), 3),
    limit_check_overhead_ms_p95: round(percentile(checks, 95), 3),
    limit_check_goal_ms_p95: 2,
    limit_check_uncached_ms_p95: round(percentile(uncached, 95), 3),
    peak_rss_mb: peakRssMb(),
  };
  console.log(results);
  writeResults('billing', results);
} finally {
  await h.close();
  await stripe.close();
}
