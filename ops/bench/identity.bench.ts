/**
 * Identity benchmarks (issue 21, e-mail ownership), on the whole backend in this process over the real
 * Postgres, mail to the outbox as on `make start`:
 * - "forgot password" answer times for addresses with and without an account, interleaved so both see the
 *   same load: the answer must not tell them apart (no account enumeration by timing);
 * - a password reset from its link (spend the link, hash the password, append, wait for the read model).
 */
import { createApiHarness } from '@kesher/services/testing/api-harness';
import { waitUntil } from '@kesher/services/testing/processes';
import { outboxLink } from '@kesher/services/testing/api-harness';
import { percentile, round, writeResults } from './bench-kit.js';

const ROUNDS = Number(process.env.BENCH_IDENTITY_ROUNDS ?? 200);
// Sign-ups come from one address, which the auth routes allow 30 a minute: 10 known owners and 10 resets.
const RESETS = Number(process.env.BENCH_IDENTITY_RESETS ?? 10);

const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50_ms: round(percentile(sorted, 50), 2),
    p95_ms: round(percentile(sorted, 95), 2),
    max_ms: round(sorted.at(-1)!, 2),
  };
};

const h = await createApiHarness();
try {
  const known = Array.from({ length: 10 }, (_, i) => `known-${i}@example.com`);
  for (const email of known) await h.owner(email);
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const kind of i % 2 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
      const email = kind === 'known' ? known[i % known.length]! : `nobody-${i}@example.com`;
      const started = performance.now();
      // Each request from its own address: the per-address limit (5 per 15 min) is not what is measured.
      const response = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/forgot-password',
        payload: { email },
        remoteAddress: `10.${i >> 8}.${i & 255}.${kind === 'known' ? 1 : 2}`,
      });
      times[kind].push(performance.now() - started);
      if (response.statusCode !== 202)
        throw new Error(`forgot-password answered ${response.statusCode} ${response.body}`);
    }
  }

  const resets: number[] = [];
  const outbox = `${h.platform.config.DATA_DIR}/outbox`;
  for (let i = 0; i < RESETS; i++) {
    const email = `resetter-${i}@example.com`;
    await h.owner(email);
    await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email },
      remoteAddress: `10.200.${i}.1`,
    });
    const link = await waitUntil(() => outboxLink(outbox, email, '/reset-password'), {
      what: `the reset mail to ${email}`,
    });
    const started = performance.now();
    const response = await h.app.inject({
      method: 'POST',
      url: '/api/v1/auth/reset-password',
      payload: { token: link?.searchParams.get('token'), password: 'N3w-Str0nger-Passw0rd!' },
      remoteAddress: `10.201.${i}.1`,
    });
    resets.push(performance.now() - started);
    if (response.statusCode !== 200) throw new Error(`reset answered ${response.statusCode} ${response.body}`);
  }

  const known50 = summary(times.known).p50_ms;
  const unknown50 = summary(times.unknown).p50_ms;
  writeResults('identity', {
    forgot_password: {
      known_address: summary(times.known),
      unknown_address: summary(times.unknown),
      p50_difference_ms: round(known50 - unknown50, 2),
    },
    reset_password: summary(resets),
  });
} finally {
  await h.close();
}
