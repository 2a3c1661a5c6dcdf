import { SystemMetricsSchema } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, outboxLink, type ApiHarness } from '../testing/api-harness.js';
import { waitUntil } from '../testing/processes.js';
import { postgresAvailability } from '../testing/test-database.js';

const gate = await postgresAvailability();
const OPERATOR = 'ops@example.com';

/**
 * Operators by registration (issue 21 item 10): the first to register an address listed in
 * OPERATOR_EMAILS is not an operator until they prove the address by its mailed link. Mail goes to the
 * embedded default's outbox here (no SMTP_URL), as on `make start`.
 */
describe.skipIf(!gate.available)(
  `operators by OPERATOR_EMAILS${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let outbox: string;
    beforeAll(async () => {
      h = await createApiHarness({ env: { OPERATOR_EMAILS: OPERATOR } });
      outbox = `${h.platform.config.DATA_DIR}/outbox`;
    });
    afterAll(async () => h?.close());

    const processFigures = async (authorization: string) => {
      const response = await h.app.inject({ url: '/api/v1/analytics/system-metrics', headers: { authorization } });
      expect(response.statusCode).toBe(200);
      return SystemMetricsSchema.parse(response.json().data).process;
    };

    it('makes a listed address an operator only once it is verified', async () => {
      const registered = await h.app.inject({
        method: 'POST',
        url: '/api/v1/auth/register',
        payload: { email: OPERATOR, password: 'Str0ng-Passw0rd!' },
      });
      const authorization = `Bearer ${registered.json().access_token}`;
      expect(await processFigures(authorization)).toBeNull();

      const link = await waitUntil(() => outboxLink(outbox, OPERATOR, '/verify-email'), {
        what: 'the verification mail in the outbox',
      });
      expect(
        (
          await h.app.inject({
            method: 'POST',
            url: '/api/v1/auth/verify-email',
            payload: { token: link?.searchParams.get('token') },
          })
        ).statusCode,
      ).toBe(200);
      expect(await processFigures(authorization)).toMatchObject({ node_version: process.version });
    });
  },
);
