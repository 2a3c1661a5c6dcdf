import type { AllPosition } from '@kesher/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoReplicas } from '../platform/limits/testing/replicas.js';
import type { SqlExecutor } from '../platform/sql/sql.port.js';
import { postgresAvailability } from '../testing/test-database.js';
import { createMessageQuota } from './message-quota.js';
import { createPlanBook } from './plan-book.js';

const gate = await postgresAvailability();
const at = (n: number): AllPosition => ({ commit: BigInt(n), prepare: BigInt(n) });

/**
 * The monthly quota with two API processes (two pools on one database). The usage read model is played
 * by a count and the `usage` checkpoint row the projector would write: what it has applied, it counts.
 */
describe.skipIf(!gate.available)('the monthly message quota across two API processes', () => {
  let replicas: Awaited<ReturnType<typeof twoReplicas>>;
  beforeAll(async () => {
    replicas = await twoReplicas();
  });
  afterAll(async () => replicas?.close());

  /** The read model "applies" the runs requested up to `position`: its count and its checkpoint move together. */
  const readModel = (sql: SqlExecutor) => {
    const counts = new Map<string, number>();
    const requested: { owner: string; position: number }[] = [];
    let checkpoint = 0;
    const waits: number[] = [];
    return {
      counts,
      waits,
      requested,
      async apply(upTo: number) {
        for (const run of requested.filter((r) => r.position > checkpoint && r.position <= upTo))
          counts.set(run.owner, (counts.get(run.owner) ?? 0) + 1);
        checkpoint = upTo;
        await sql.query(
          `INSERT INTO projection_checkpoints (name, version, commit_position, prepare_position) VALUES ('usage', 1, $1::numeric, $1::bigint)
           ON CONFLICT (name) DO UPDATE SET commit_position = $1::numeric, prepare_position = $1::bigint`,
          [upTo],
        );
      },
    };
  };

  it("counts the runs another process accepted before the read model has them, and refuses the owner's last place once", async () => {
    const model = readModel(replicas.a);
    await model.apply(0);
    const quota = (sql: SqlExecutor) =>
      createMessageQuota({
        planOf: createPlanBook({ PLAN_FREE_MESSAGES_PER_MONTH: 3 }),
        usage: { quotaUsed: async (owner) => model.counts.get(owner) ?? 0 },
        sql,
        clock: () => new Date('2026-02-10T00:00:00Z'),
        // Waiting for the read model is when the projector catches up.
        awaitReadModels: async (position) => (
          model.waits.push(Number(position.commit)),
          await model.apply(Number(position.commit)),
          true
        ),
      });
    const a = quota(replicas.a);
    const b = quota(replicas.b);
    const accept = async (q: typeof a, n: number) => {
      model.requested.push({ owner: 'o1', position: n });
      await q.accepted('o1', at(n));
    };

    expect(await b.check('o1')).toEqual({ allowed: true, used: 0, limit: 3 });
    await accept(a, 1);
    expect((await b.check('o1')).allowed).toBe(true);
    await accept(b, 2);
    expect((await a.check('o1')).allowed).toBe(true);
    expect(model.waits).toEqual([]);
    await accept(a, 3);
    // 0 counted + 3 held (two by A, one by B) reaches the limit on either process: it waits for the read model, which says 3.
    expect(await b.check('o1')).toEqual({ allowed: false, used: 3, limit: 3 });
    expect(model.waits).toEqual([3]);
    expect(await a.check('o1')).toEqual({ allowed: false, used: 3, limit: 3 });
    // The holds the read model counts are gone; another owner is not affected.
    expect(
      (await replicas.a.query(`SELECT count(*)::int AS n FROM quota_holds WHERE owner_id = 'o1'`)).rows[0],
    ).toEqual({ n: 0 });
    expect(await a.check('other')).toMatchObject({ allowed: true });
  });

  it('allows while the month has room, reading the UTC month of now', async () => {
    const asked: string[] = [];
    const quota = (used: number) =>
      createMessageQuota({
        planOf: createPlanBook({ PLAN_FREE_MESSAGES_PER_MONTH: 3 }),
        usage: { quotaUsed: async (_owner, month) => (asked.push(month), used) },
        sql: replicas.b,
        clock: () => new Date('2026-01-31T23:30:00-02:00'),
        awaitReadModels: async () => true,
      });
    expect(await quota(2).check('o2')).toEqual({ allowed: true, used: 2, limit: 3 });
    expect(await quota(3).check('o2')).toEqual({ allowed: false, used: 3, limit: 3 });
    expect(asked).toEqual(['2026-02', '2026-02', '2026-02']);
  });
});
