/**
 * Channel benchmarks (issue 15): Kesher in one process on the real Postgres (API, projector, relay,
 * ai-runner and channels worker, the in-process bus, the built-in answer engine answering from a file),
 * with the WhatsApp Cloud API played by the local stand-in. Deliveries are signed with the app secret and
 * posted over real HTTP, as Meta posts them.
 *
 * - webhook_ack_p99_ms: a signed delivery posted → its 200 (verified, recorded as an event, answered),
 *   while the answers to other deliveries are being made in the same process; `webhook_ack_quiet_…`: the same
 *   with nothing else going on, beside GET /health (`health_…`), which shows what the machine's load costs.
 * - reply_p95_ms: the delivery posted → the answer received by the stand-in's /messages endpoint.
 * - duplicates_answered: 1,000 deliveries of which 20 % repeat an earlier one (Meta's redelivery),
 *   shuffled and posted 20 at a time; answers beyond one per message.
 *
 *   make bench-channels   → bench-results/channels.json
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { plans } from '@kesher/contracts';
import { createApiHarness } from '@kesher/services/testing/api-harness';
import {
  startChannelStandIns,
  whatsappStatusDelivery,
  whatsappTextDelivery,
} from '@kesher/services/channels/testing/channel-stand-ins';
import { metaSignature } from '@kesher/services/channels/meta/meta-signature';
import { peakRssMb, percentile, round, writeResults } from './bench-kit.js';
import { freePort } from '@kesher/services/testing/processes';

const LATENCY_DELIVERIES = Number(process.env.BENCH_CHANNELS_LATENCY ?? 200);
const LATENCY_IN_FLIGHT = 4;
const FLOOD_DELIVERIES = Number(process.env.BENCH_CHANNELS_DELIVERIES ?? 1000);
const REDELIVERED_SHARE = 0.2;
const FLOOD_IN_FLIGHT = 20;
const APP_SECRET = 'bench-meta-app-secret';
const PHONE_NUMBER_ID = '1555000100';

const FACTS = [
  'Opening hours: the Kesher bakery is open Sunday to Thursday, 7:00 to 19:00.',
  'The sourdough loaf costs 24 shekels.',
  'Delivery in Tel Aviv costs 15 shekels and takes one day.',
  'Gluten-free bread is baked on Tuesdays and Thursdays.',
].join('\n');

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

const loadAtStart = loadavg()[0]!;
const standIns = await startChannelStandIns();
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const h = await createApiHarness({
  env: {
    WHATSAPP_API_URL: standIns.urls.whatsapp,
    META_APP_SECRET: APP_SECRET,
    PUBLIC_URL: base,
    CHANNEL_WEBHOOK_PER_MINUTE: '1000000',
    PLAN_FREE_MESSAGES_PER_MONTH: '1000000',
  },
  planOf: async () => plans.PRO,
});
await h.app.listen({ port, host: '127.0.0.1' });

try {
  const owner = await h.owner();
  const auth = { authorization: owner.authorization };
  const assistantId = (
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/assistants/',
      headers: auth,
      payload: { name: 'Bakery', description: 'The bakery', instructions: 'Answer from the files' },
    })
  ).json().assistant_id as number;
  const boundary = '----kesherbench';
  const upload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bakery.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(FACTS),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  await h.app.inject({
    method: 'POST',
    url: `/api/v1/assistants/${assistantId}/upload_file`,
    headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: upload,
  });
  for (;;) {
    const files = (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/files`, headers: auth })).json() as {
      status: string;
    }[];
    if (files[0]?.status === 'ready') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const number = standIns.addWhatsAppNumber({
    phoneNumberId: PHONE_NUMBER_ID,
    display: '+1 555-000-100',
    name: 'Bench Bakery',
  });
  const setup = await h.app.inject({
    method: 'POST',
    url: `/api/v1/assistants/${assistantId}/whatsapp/setup`,
    headers: auth,
    payload: { access_token: number.token, phone_number_id: PHONE_NUMBER_ID },
  });
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.body}`);
  const webhookUrl = setup.json().integration.webhook_url as string;

  const questions = [
    'How much is the sourdough loaf?',
    'When are you open?',
    'Do you deliver to Tel Aviv?',
    'When is gluten-free bread baked?',
  ];
  async function post(from: string, messageId: string, text: string) {
    const raw = JSON.stringify(whatsappTextDelivery(PHONE_NUMBER_ID, from, messageId, text));
    const started = performance.now();
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, APP_SECRET) },
      body: raw,
    });
    await response.arrayBuffer();
    const ackMs = performance.now() - started;
    if (response.status !== 200) throw new Error(`delivery answered ${response.status}`);
    return { started, ackMs };
  }

  // Warm-up: the first answers pay for JIT and caches.
  await pool(
    Array.from({ length: 20 }, (_, i) => i),
    4,
    async (i) => {
      await post(`1999000${i}`, `wamid.warm${i}`, questions[i % questions.length]!);
      await standIns.waitForSent(1, `1999000${i}`);
    },
  );

  // The same path with nothing else going on: delivery statuses (recorded, nothing to answer), one at a
  // time, beside the API's cheapest call — what the machine's load alone costs a request.
  const quietAcks: number[] = [];
  const health: number[] = [];
  for (let i = 0; i < 150; i++) {
    const started = performance.now();
    await (await fetch(`${base}/api/v1/health`)).arrayBuffer();
    health.push(performance.now() - started);
    const raw = JSON.stringify(whatsappStatusDelivery(PHONE_NUMBER_ID, `wamid.status${i}`, 'delivered', '19990000'));
    const posted = performance.now();
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(raw, APP_SECRET) },
      body: raw,
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`status delivery answered ${response.status}`);
    quietAcks.push(performance.now() - posted);
  }

  // Latency: one message per customer, a few customers writing at once (acks measured while answers are made).
  const acks: number[] = [];
  const replies: number[] = [];
  await pool(
    Array.from({ length: LATENCY_DELIVERIES }, (_, i) => i),
    LATENCY_IN_FLIGHT,
    async (i) => {
      const from = `1972500${String(i).padStart(5, '0')}`;
      const { started, ackMs } = await post(from, `wamid.lat${i}`, questions[i % questions.length]!);
      acks.push(ackMs);
      const [sent] = await standIns.waitForSent(1, from, 60_000);
      replies.push(sent!.at - (performance.timeOrigin + started));
    },
  );

  // Redelivery: 1,000 deliveries, 20 % of them repeats of earlier ones, shuffled, 20 in flight.
  const unique = Math.round(FLOOD_DELIVERIES * (1 - REDELIVERED_SHARE));
  const deliveries = Array.from({ length: unique }, (_, i) => ({
    from: `1973600${String(i).padStart(5, '0')}`,
    id: `wamid.dup${i}`,
    text: questions[i % questions.length]!,
  }));
  const repeats = Array.from({ length: FLOOD_DELIVERIES - unique }, (_, i) => deliveries[(i * 7) % unique]!);
  const all = [...deliveries, ...repeats].sort(() => Math.random() - 0.5);
  const floodStarted = performance.now();
  await pool(all, FLOOD_IN_FLIGHT, async (d) => void (await post(d.from, d.id, d.text)));
  const acceptedIn = performance.now() - floodStarted;
  const floodAnswers = () => standIns.sent.filter((message) => message.to.startsWith('1973600'));
  const answeredBy = performance.now() + 180_000;
  while (new Set(floodAnswers().map((m) => m.to)).size < unique && performance.now() < answeredBy)
    await new Promise((resolve) => setTimeout(resolve, 100));
  const allAnsweredIn = performance.now() - floodStarted;
  // Let anything still queued (a duplicate would come after its original) arrive before counting.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const perChat = new Map<string, number>();
  for (const message of floodAnswers()) perChat.set(message.to, (perChat.get(message.to) ?? 0) + 1);
  const duplicates = [...perChat.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const unanswered = deliveries.filter((d) => !perChat.has(d.from)).length;

  acks.sort((a, b) => a - b);
  quietAcks.sort((a, b) => a - b);
  health.sort((a, b) => a - b);
  replies.sort((a, b) => a - b);
  writeResults('channels', {
    setup:
      'one process (API, projector, relay, ai-runner, channels worker; in-process bus) on Postgres; built-in engine answering from a file; WhatsApp Cloud API stand-in; signed deliveries over HTTP',
    webhook_ack_p50_ms: round(percentile(acks, 50)),
    webhook_ack_p99_ms: round(percentile(acks, 99)),
    webhook_ack_goal_ms: 20,
    webhook_ack_quiet_p50_ms: round(percentile(quietAcks, 50)),
    webhook_ack_quiet_p99_ms: round(percentile(quietAcks, 99)),
    health_p50_ms: round(percentile(health, 50)),
    health_p99_ms: round(percentile(health, 99)),
    reply_p50_ms: round(percentile(replies, 50)),
    reply_p95_ms: round(percentile(replies, 95)),
    reply_goal_ms: 300,
    latency_deliveries: LATENCY_DELIVERIES,
    latency_in_flight: LATENCY_IN_FLIGHT,
    deliveries: all.length,
    redelivered: all.length - unique,
    answers_expected: unique,
    duplicates_answered: duplicates,
    duplicates_goal: 0,
    unanswered,
    deliveries_accepted_per_s: round(all.length / (acceptedIn / 1000)),
    flood_answered_in_s: round(allAnsweredIn / 1000),
    peak_rss_mb: peakRssMb(),
    // The machine is shared: its load (runnable processes per 1 min, on its cores) says how much of it this run had.
    load_average_1m: { start: round(loadAtStart), end: round(loadavg()[0]!) },
  });
} finally {
  await h.close();
  await standIns.close();
}
