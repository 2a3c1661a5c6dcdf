import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{contracts,services,projections,ops}/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: integration files each create their own database; keep the parallelism modest.
    maxWorkers: 2,
  },
});
