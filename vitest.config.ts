import { defineConfig } from 'vitest/config';

/**
 * Three passes. The main pass runs every test file in parallel. Outage tests (`*.outage.int.test.ts`)
 * stop and restart the shared Kafka broker, so they run in a pass of their own, one file at a time:
 * `KESHER_OUTAGE_PASS=1 vitest run` (ops/test.sh does both). The production topology of
 * docker-compose.yml (`*.compose.test.ts`, four processes) runs from ops/compose-check.sh:
 * `KESHER_COMPOSE_PASS=1 vitest run`.
 */
const outagePass = process.env.KESHER_OUTAGE_PASS === '1';
const composePass = process.env.KESHER_COMPOSE_PASS === '1';

export default defineConfig({
  test: {
    include: outagePass
      ? ['{services,projections}/**/*.outage.int.test.ts']
      : composePass
        ? ['ops/**/*.compose.test.ts']
        : ['{contracts,services,projections,ops}/**/*.test.ts'],
    exclude: [
      '**/node_modules/**',
      ...(outagePass ? [] : ['**/*.outage.int.test.ts']),
      ...(composePass ? [] : ['**/*.compose.test.ts']),
    ],
    fileParallelism: !outagePass,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits on state; its 1 s default is a wall-clock margin a loaded machine eats (a poll that is
    // met returns at once, so a wide bound costs a passing test nothing). A call's own timeout still wins.
    expect: { poll: { timeout: 30_000 } },
    // Two cores: integration files each create their own database; keep the parallelism modest.
    maxWorkers: 2,
  },
});
