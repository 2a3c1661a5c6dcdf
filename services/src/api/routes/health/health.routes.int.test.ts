import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)('health, metrics and docs', () => {
  let h: ApiHarness;
  beforeAll(async () => {
    h = await createApiHarness();
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
      .poll(async () => (await h.app.inject({ url: '/api/v1/metrics' })).body, { timeout: 5000, interval: 100 })
      .toMatch(/kesher_projection_lag_positions\{projection="assistants"\} \d+/);
    expect((await h.app.inject({ url: '/api/v1/metrics' })).body).toContain('kesher_projection_lag_seconds');
  });

  it('serves OpenAPI generated from the route schemas', async () => {
    const spec = (await h.app.inject({ url: '/api/v1/docs/openapi.json' })).json();
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(['/api/v1/assistants/', '/api/v1/auth/register', '/api/v1/assistants/{id}/upload_file']));
    expect(spec.paths['/api/v1/auth/register'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('password');
    expect((await h.app.inject({ url: '/api/v1/docs' })).body).toContain('Kesher API');
  });
});
