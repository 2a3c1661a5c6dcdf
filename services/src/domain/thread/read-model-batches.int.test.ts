import { randomUUID } from 'node:crypto';
import { comparePositions, START_POSITION, streamIds, type AllPosition } from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';
import { threadsProjection } from '@kesher/projections/threads/threads.projection';
import { usageProjection } from '@kesher/projections/usage/usage.projection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadDecider, type ThreadCommand } from './thread.decider.js';
import { createPostgresPlatform } from '../../testing/platform-fixture.js';
import { postgresAvailability } from '../../testing/test-database.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createProjectionRunner } from '../../platform/projections/projection-runner.js';

const gate = await postgresAvailability();

/** Deterministic pseudo-random numbers: every run writes the same log. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const checksum = async (sql: Sql, projection: Projection) =>
  Object.fromEntries(
    await Promise.all(
      projection.tables.map(async (table) => {
        const { rows } = await sql.query<{ sum: string; n: number }>(
          `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum, count(*)::int AS n FROM ${table} t`,
        );
        return [table, rows[0]!] as const;
      }),
    ),
  );

/**
 * The threads and usage read models apply a batch with one statement per kind of change. Whatever the
 * batch size, the tables must come out as event-by-event application makes them: many conversations
 * written at once (so batches mix them), with every kind of fact the thread decider allows — runs
 * completed, failed, expired and superseded, renames, changed feedback, deletions, months changing.
 */
describe.skipIf(!gate.available)(
  `read models applied in batches${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let platform: Awaited<ReturnType<typeof createPostgresPlatform>>;
    /**
     * The workload's last append. Rebuilds wait for it rather than for the visible head: a reader only sees
     * transactions older than the oldest one still running in the whole cluster (other test databases'
     * included), so right after the workload the head can still be short of its last events.
     */
    let last: AllPosition = START_POSITION;
    beforeAll(async () => {
      platform = await createPostgresPlatform();
      const next = random(42);
      const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
      const threads = Array.from({ length: 40 }, (_, i) => ({
        id: `thread_${i}`,
        owner: `owner${i % 3}`,
        visitor: i % 4 === 0,
        runs: 0,
        messages: [] as string[],
        open: true,
        takenOver: false,
      }));
      let clock = Date.UTC(2026, 0, 31, 23, 0, 0);
      const act = async (thread: (typeof threads)[number], command: ThreadCommand) => {
        const handled = await platform.handle(threadDecider, streamIds.thread(thread.id), command, {
          actor: { kind: 'system', id: 'test' },
          correlationId: 'batches',
          now: new Date((clock += 37_000)),
        });
        if (handled.appended && comparePositions(handled.appended.position, last) > 0) last = handled.appended.position;
        return handled;
      };
      const requester = (thread: (typeof threads)[number]) =>
        thread.visitor ? { visitorSessionHash: 'a'.repeat(64) } : { ownerId: thread.owner };
      await Promise.all(
        threads.map((thread) =>
          act(thread, {
            type: 'StartThread',
            data: {
              threadId: thread.id,
              assistantId: `assistant-${thread.owner}`,
              assistantOwnerId: thread.owner,
              ownerId: thread.visitor ? null : thread.owner,
              visitorSessionHash: thread.visitor ? 'a'.repeat(64) : null,
              isPublic: thread.visitor,
              channel: thread.visitor ? 'embed' : 'app',
              // Some customers' conversations come through a channel that names them (one inbox).
              ...(thread.visitor && Number(thread.id.split('_')[1]) % 8 === 0
                ? { contact: { integrationId: 'int_test', chatId: thread.id, name: `Customer ${thread.id}` } }
                : {}),
            },
          }),
        ),
      );
      // Rounds of concurrent steps, one per open conversation, so consecutive events belong to different ones.
      for (let round = 0; round < 12; round++) {
        await Promise.all(
          threads.map(async (thread) => {
            if (!thread.open) return;
            const roll = next();
            const who = requester(thread);
            if (roll < 0.05 && round > 6) {
              thread.open = false;
              await act(thread, { type: 'DeleteThread', data: { requester: who } });
            } else if (roll < 0.15) {
              await act(thread, { type: 'RenameThread', data: { requester: who, title: `Title ${round}` } });
            } else if (roll < 0.35 && thread.visitor) {
              // The owner takes the customer's conversation over and replies, or hands it back.
              thread.takenOver = !thread.takenOver;
              await act(thread, {
                type: thread.takenOver ? 'TakeOverThread' : 'HandBackThread',
                data: { ownerId: thread.owner },
              });
              if (thread.takenOver) {
                const messageId = `owner_${thread.id}_${round}`;
                thread.messages.push(messageId);
                await act(thread, {
                  type: 'PostOwnerReply',
                  data: { ownerId: thread.owner, messageId, text: `Owner ${round}`, language: 'en' },
                });
              }
            } else if (roll < 0.25 && thread.messages.length) {
              await act(thread, {
                type: 'GiveFeedback',
                data: {
                  requester: who,
                  messageId: pick(thread.messages),
                  rating: next() < 0.5 ? 'like' : 'dislike',
                  comment: next() < 0.5 ? null : `c${round}`,
                  authorKey: 'author',
                  source: 'chat',
                },
              });
            } else {
              const messageId = `msg_${thread.id}_${round}`;
              thread.messages.push(messageId);
              await act(thread, {
                type: 'PostUserMessage',
                data: { requester: who, messageId, text: `Question ${round}`, language: 'en', chatLimit: 100 },
              });
              if (thread.takenOver) return;
              const runId = `run_${thread.id}_${thread.runs++}`;
              const deadlineAt = new Date(clock + 45_000).toISOString();
              await act(thread, {
                type: 'RequestRun',
                data: {
                  requester: who,
                  runId,
                  assistantId: `assistant-${thread.owner}`,
                  deadlineAt,
                  now: new Date(clock).toISOString(),
                },
              });
              const outcome = next();
              if (outcome < 0.6) {
                await act(thread, { type: 'StartRun', data: { runId, provider: 'test' } });
                if (outcome < 0.15) {
                  // The model asks for an action first (status requires_action), as the ai-runner records it
                  // straight onto the thread's stream (automation/run-automation.ts), not through the decider.
                  const appended = await platform.eventStore.appendToStream(
                    streamIds.thread(thread.id),
                    [
                      {
                        type: 'RunActionsRequired',
                        data: {
                          threadId: thread.id,
                          runId,
                          calls: [
                            {
                              callId: `call_${runId}`,
                              actionId: 'action_1',
                              title: 'Order status',
                              arguments: { order_id: '42' },
                            },
                          ],
                        },
                        metadata: {
                          eventId: randomUUID(),
                          correlationId: 'batches',
                          causationId: 'batches',
                          actor: { kind: 'system', id: 'test' },
                          timestamp: new Date((clock += 37_000)).toISOString(),
                          schemaVersion: 1,
                        },
                      },
                      {
                        type: 'ActionCalled',
                        data: {
                          threadId: thread.id,
                          runId,
                          callId: `call_${runId}`,
                          actionId: 'action_1',
                          title: 'Order status',
                          success: outcome < 0.1,
                          statusCode: outcome < 0.1 ? 200 : 504,
                          durationMs: 12,
                          error: outcome < 0.1 ? null : 'The API did not answer within 5000 ms',
                        },
                        metadata: {
                          eventId: randomUUID(),
                          correlationId: 'batches',
                          causationId: 'batches',
                          actor: { kind: 'system', id: 'test' },
                          timestamp: new Date((clock += 1_000)).toISOString(),
                          schemaVersion: 1,
                        },
                      },
                    ],
                    { expectedRevision: 'stream_exists' },
                  );
                  if (comparePositions(appended.position, last) > 0) last = appended.position;
                }
                const answerId = `answer_${runId}`;
                thread.messages.push(answerId);
                await act(thread, {
                  type: 'CompleteRun',
                  data: {
                    runId,
                    messageId: answerId,
                    text: `Answer ${round}`,
                    language: 'en',
                    provider: 'builtin',
                    responseMs: 10,
                    promptTokens: 1,
                    completionTokens: 1,
                    sources: [{ fileId: 'f', filename: 'f.txt', sourceUrl: null, section: `s${round}` }],
                    referredUrl: next() < 0.3 ? 'https://shop.example.com' : null,
                  },
                });
              } else if (outcome < 0.75) {
                await act(thread, {
                  type: 'FailRun',
                  data: { runId, error: 'The AI service had an error. Please try again.' },
                });
              } else if (outcome < 0.85) {
                await act(thread, { type: 'ExpireRun', data: { runId, now: new Date(clock + 60_000).toISOString() } });
              }
              // Otherwise the run stays queued; the next request on this thread expires it once past its deadline.
            }
          }),
        );
      }
      // Erasures (privacy/erasure): one visitor's conversation, then an owner with every conversation of theirs.
      for (const [subject, ownerId, threadId] of [
        ['thread', 'owner0', 'thread_4'],
        ['account', 'owner2', null],
      ] as const) {
        const erasureId = randomUUID();
        const appended = await platform.eventStore.appendToStream(
          streamIds.erasure(erasureId),
          [
            {
              type: 'SubjectErased',
              data: {
                erasureId,
                subject,
                keyId: `${subject}:${threadId ?? ownerId}`,
                ownerId,
                threadId,
                reason: 'visitor_request',
                actor: 'system:test',
                dependentKeys: 0,
              },
              metadata: {
                eventId: randomUUID(),
                correlationId: 'batches',
                causationId: 'batches',
                actor: { kind: 'system', id: 'test' },
                timestamp: new Date((clock += 37_000)).toISOString(),
                schemaVersion: 1,
              },
            },
          ],
          { expectedRevision: 'no_stream' },
        );
        if (comparePositions(appended.position, last) > 0) last = appended.position;
      }
    }, 120_000);
    afterAll(async () => platform?.close());

    async function rebuild(projection: Projection, batchSize: number) {
      const runner = createProjectionRunner({
        eventStore: platform.eventStore,
        sql: platform.sql,
        projections: [projection],
        batchSize,
      });
      await runner.start({ rebuild: [projection.name] });
      expect(await runner.waitForPosition(last, { timeoutMs: 60_000 })).toBe(true);
      await runner.stop();
      return checksum(platform.sql, projection);
    }

    for (const projection of [threadsProjection, usageProjection]) {
      it(`${projection.name}: one event at a time and any batch size give the same tables`, async () => {
        const oneByOne = await rebuild(projection, 1);
        expect(Object.values(oneByOne).some((table) => table.n > 0)).toBe(true);
        for (const batchSize of [3, 17, 1000]) expect(await rebuild(projection, batchSize)).toEqual(oneByOne);
      });
    }

    it('the workload has every kind of fact in it', async () => {
      const { events } = await platform.eventStore.readAll({ maxCount: 100_000 });
      const types = new Set(events.map((e) => e.type));
      for (const type of threadsProjection.eventTypes) expect(types).toContain(type);
      expect(new Set(events.map((e) => e.metadata.timestamp.slice(0, 7)))).toEqual(new Set(['2026-01', '2026-02']));
    });
  },
);
