import { ActionSchema, GuidelineSchema, WorkflowSchema } from '@kesher/contracts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSISTENCY_HEADER } from '../../command-runner.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { waitUntil } from '../../../testing/processes.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const postgres = await postgresAvailability();
const SECRET = 'Bearer sk-live-0123456789abcdef';

/**
 * Saves answered while the automation read model is behind (its table locked, so the real projector
 * cannot apply the write and the read-your-writes wait runs out): each answer is the saved version,
 * marked `Kesher-Consistency: pending` — never the previous version the read model still has, never a 5xx.
 * An edit built on the current item (a toggle, a masked secret kept) builds on the log's version.
 */
describe.skipIf(!postgres.available)(
  `automation saves while the read model is behind${postgres.available ? '' : ` (not run: ${postgres.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({ settleReads: false });
    }, 120_000);
    afterAll(async () => {
      await h?.close();
    });

    const call = (authorization: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      h.app.inject({ method, url: `/api/v1${url}`, headers: { authorization }, ...(payload ? { payload } : {}) });

    /** Holds the projector back on automation_items (reads go on: EXCLUSIVE lets SELECT through) until released. */
    async function holdAutomation() {
      const client = new pg.Client({ connectionString: h.dbUrl });
      await client.connect();
      await client.query('BEGIN');
      await client.query('LOCK TABLE automation_items IN EXCLUSIVE MODE');
      return async () => {
        await client.query('COMMIT');
        await client.end();
      };
    }

    it(
      'answers the new workflow, guideline and action, marked pending; a toggle keeps the edit made just before it',
      { timeout: 120_000 },
      async () => {
        const a = await h.owner();
        const wf = WorkflowSchema.parse(
          (
            await call(a.authorization, 'POST', '/workflows', {
              title: 'Old title',
              trigger_condition: 'asks',
              training_phrases: ['where is it'],
              instructions: 'Answer.',
            })
          ).json(),
        );
        const gl = GuidelineSchema.parse(
          (
            await call(a.authorization, 'POST', '/guidelines', {
              title: 'Old sign-off',
              category: 'format',
              instructions: 'Sign.',
            })
          ).json(),
        );
        const act = ActionSchema.parse(
          (
            await call(a.authorization, 'POST', '/actions', {
              title: 'Old action',
              api_endpoint: 'https://api.example.com/orders',
              api_headers: [{ key: 'Authorization', value: SECRET }],
            })
          ).json(),
        );

        const release = await holdAutomation();
        try {
          const [workflow, guideline, action] = await Promise.all([
            call(a.authorization, 'PUT', `/workflows/${wf.id}`, {
              title: 'New title',
              trigger_condition: 'asks',
              training_phrases: ['where is it'],
              instructions: 'Answer.',
            }),
            (async () => {
              const edited = await call(a.authorization, 'PUT', `/guidelines/${gl.id}`, {
                title: 'New sign-off',
                category: 'format',
                instructions: 'Sign.',
              });
              expect(edited.statusCode, edited.body).toBe(200);
              expect(GuidelineSchema.parse(edited.json()).title).toBe('New sign-off');
              // The read model still has "Old sign-off": the toggle must build on the edit, not revert it.
              return call(a.authorization, 'PUT', `/guidelines/${gl.id}`, { active: false });
            })(),
            // The masked secret sent back keeps the stored one, found in the log.
            call(a.authorization, 'PUT', `/actions/${act.id}`, {
              title: 'New action',
              api_endpoint: 'https://api.example.com/orders',
              api_headers: act.api_headers,
            }),
          ]);
          for (const answer of [workflow, guideline, action]) {
            expect(answer.statusCode, answer.body).toBe(200);
            expect(answer.headers[CONSISTENCY_HEADER]).toBe('pending');
          }
          expect(WorkflowSchema.parse(workflow.json())).toMatchObject({
            id: wf.id,
            title: 'New title',
            created_at: wf.created_at,
          });
          expect(GuidelineSchema.parse(guideline.json())).toMatchObject({
            id: gl.id,
            title: 'New sign-off',
            active: false,
            created_at: gl.created_at,
          });
          expect(ActionSchema.parse(action.json())).toMatchObject({
            id: act.id,
            title: 'New action',
            api_headers: [{ key: 'Authorization', value: '********cdef' }],
          });
        } finally {
          await release();
        }

        // Once the projector catches up, the read model says what the answers said.
        const guidelines = await waitUntil(
          async () => {
            const list = GuidelineSchema.array().parse((await call(a.authorization, 'GET', '/guidelines')).json());
            return list[0]?.active === false ? list : undefined;
          },
          { what: 'the guideline toggled off in the read model' },
        );
        expect(guidelines?.[0]).toMatchObject({ title: 'New sign-off', active: false });
        const current = await call(a.authorization, 'PUT', `/workflows/${wf.id}`, {
          title: 'Newest title',
          trigger_condition: 'asks',
          training_phrases: ['where is it'],
          instructions: 'Answer.',
        });
        expect(current.headers[CONSISTENCY_HEADER]).toBeUndefined();
        expect(WorkflowSchema.parse(current.json()).title).toBe('Newest title');
      },
    );
  },
);
