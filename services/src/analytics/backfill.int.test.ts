import { busiestHoursProjection } from '@kesher/projections/analytics/examples/busiest-hours.projection';
import { analyticsProjections } from '@kesher/projections/analytics/analytics-projections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAllCheckpoints } from '../platform/projections/checkpoints.js';
import { createProjectionRunner } from '../platform/projections/projection-runner.js';
import { rebuildTogether } from '../platform/projections/rebuild-together.js';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { exited, startMain } from '../testing/processes.js';
import { postgresAvailability } from '../testing/test-database.js';
import {
  ask,
  getJson,
  ownerThread,
  ownerWithAssistant,
  scriptedProvider,
  settled,
  type ScenarioOwner,
} from './testing/analytics-scenario.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)(
  `analytics are computed from the log, whenever they are added${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    let dana: ScenarioOwner;
    let noa: ScenarioOwner;
    let danaThread: string;
    let now = new Date('2030-04-15T08:15:00.000Z'); // a Monday (the workers share this clock)

    beforeAll(async () => {
      h = await createApiHarness({ answerProvider: scriptedProvider, clock: () => now });
      dana = await ownerWithAssistant(h);
      noa = await ownerWithAssistant(h);
      danaThread = await ownerThread(h, dana);
      const noaThread = await ownerThread(h, noa);
      // Monday 08:xx: two of Dana's; Monday 17:xx: one of Dana's, one of Noa's; Tuesday 08:xx: one of Dana's.
      await ask(h, dana, danaThread, 'Do you bake on Mondays?');
      await ask(h, dana, danaThread, 'And rye bread?');
      now = new Date('2030-04-15T17:40:00.000Z');
      await ask(h, dana, danaThread, 'Are you open late?');
      await ask(h, noa, noaThread, 'Gift cards?');
      now = new Date('2030-04-16T08:05:00.000Z');
      await ask(h, dana, danaThread, 'Fresh croissants today?');
      await settled(h);
    });
    afterAll(async () => h?.close());

    it('a projection written after the events computes their whole history from the log (the documented example)', async () => {
      const runner = createProjectionRunner({
        eventStore: h.platform.eventStore,
        sql: h.platform.sql,
        projections: [busiestHoursProjection],
      });
      try {
        await runner.start();
        expect(await runner.waitForPosition(await h.platform.eventStore.headPosition(), { timeoutMs: 20_000 })).toBe(
          true,
        );
        const { rows } = await h.platform.sql.query<{
          owner_id: string;
          weekday: number;
          hour: number;
          messages: number;
        }>(`SELECT owner_id, weekday, hour, messages FROM analytics_busiest_hours ORDER BY owner_id, weekday, hour`);
        const owner = (id: string) => (id === dana.accountId ? 'dana' : 'noa');
        expect(rows.map((row) => [owner(row.owner_id), row.weekday, row.hour, row.messages]).sort()).toEqual(
          [
            ['dana', 1, 8, 2],
            ['dana', 1, 17, 1],
            ['dana', 2, 8, 1],
            ['noa', 1, 17, 1],
          ].sort(),
        );
      } finally {
        await runner.stop();
      }
    });

    const dashboard = async () => (await getJson(h, '/api/v1/analytics/dashboard?days=7', dana.auth)).body;
    const snapshot = async () => {
      const tables: Record<string, string[]> = {};
      for (const projection of analyticsProjections) {
        for (const table of projection.tables) {
          tables[table] = (await h.platform.sql.query(`SELECT * FROM ${table}`)).rows
            .map((row) => JSON.stringify(row))
            .sort();
        }
      }
      return tables;
    };

    it('every analytics read model rebuilt from position zero gives the same rows and the same dashboard', async () => {
      const before = { tables: await snapshot(), dashboard: await dashboard() };
      expect(before.dashboard.data.overview).toMatchObject({ total_conversations: 1, total_queries: 4 });
      for (const projection of analyticsProjections) await h.platform.projector.rebuild(projection.name);
      await settled(h);
      expect(await snapshot()).toEqual(before.tables);
      expect(await dashboard()).toEqual(before.dashboard);
    });

    // Two replay processes start (a busy machine takes a while to load one): more than the one-minute default.
    it(
      'all of them rebuilt in ONE pass over the log (`npm run replay -- analytics`) give the same rows; the projector carries on from their checkpoints',
      { timeout: 240_000 },
      async () => {
        const before = { tables: await snapshot(), dashboard: await dashboard() };
        await h.platform.projector.stop();
        try {
          const head = await h.platform.eventStore.headPosition();
          // Small batches: the read models' state carries across many transactions, as over a long log.
          const result = await rebuildTogether({
            eventStore: h.platform.eventStore,
            sql: h.platform.sql,
            projections: analyticsProjections,
            batchSize: 7,
          });
          expect(result.position).toEqual(head);
          expect(result.events).toBeGreaterThan(20);
          const checkpoints = await readAllCheckpoints(h.platform.sql);
          for (const projection of analyticsProjections)
            expect(checkpoints[projection.name], projection.name).toEqual(head);
          expect(await snapshot()).toEqual(before.tables);

          const replay = startMain('replay', h.childEnv, ['analytics']);
          expect(await exited(replay), replay.output()).toBe(0);
          expect(replay.output()).toMatch(
            /replayed analytics-activity, analytics-response-times, .*analytics-queries up to \d+:\d+ \(\d+ events\)/,
          );
          expect(await snapshot()).toEqual(before.tables);
          const unknown = startMain('replay', h.childEnv, ['analytics-nope']);
          expect(await exited(unknown)).toBe(2);
          expect(unknown.output()).toContain('usage: npm run replay -- <projection>');
        } finally {
          await h.platform.projector.start();
        }
        expect(await dashboard()).toEqual(before.dashboard);
        await ask(h, dana, danaThread, 'Any sourdough left?');
        await settled(h);
        expect((await dashboard()).data.overview).toMatchObject({ total_conversations: 1, total_queries: 5 });
      },
    );
  },
);
