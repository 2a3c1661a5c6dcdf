import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();
/** Metrics are served only to the operator (security.plugin.int.test.ts covers who else gets a 404). */
const METRICS_TOKEN = 'operator-token-for-the-health-test';
const metrics = { url: '/api/v1/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } };

describe.skipIf(!gate.available)('health, metrics and docs', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness({ env: { METRICS_TOKEN } });
  });
  afterAll(async () => h?.close());

  it('reports the adapters in use and each projection’s progress', async () => {
    await h.owner();
    const health = (await h.app.inject({ url: '/api/v1/health' })).json();
    expect(health.adapters).toEqual({ eventStore: 'postgres', readModels: 'postgres', bus: 'in-process' });
    expect(Object.keys(health.projections)).toEqual(expect.arrayContaining(['accounts', 'assistants']));
  });

  it('exposes projection lag as a Prometheus metric', async () => {
    // The lag gauge is sampled once a second: poll until the first sample is there.
    await expect
      .poll(async () => (await h.app.inject(metrics)).body, { interval: 100 })
      .toMatch(/kesher_projection_lag_positions\{projection="assistants"\} \d+/);
    expect((await h.app.inject(metrics)).body).toContain('kesher_projection_lag_seconds');
  });

  it('serves OpenAPI generated from the route schemas', async () => {
    const spec = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining(['/api/v1/assistants/', '/api/v1/auth/register', '/api/v1/assistants/{id}/upload_file']),
    );
    expect(
      spec.paths['/api/v1/auth/register'].post.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('password');
    const docs = await h.app.inject({ url: '/api/v1/docs' });
    expect(docs.body).toContain('Kesher API');
    // Its one inline stylesheet is allowed by hash; nothing else runs or loads there.
    const style = /<style>([^<]*)<\/style>/.exec(docs.body)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(docs.headers['content-security-policy']).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    );
  });
});
