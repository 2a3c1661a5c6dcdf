import type { RecordedEvent, Source } from '@kesher/contracts';
import {
  answerSourcesProjection,
  questionKey,
} from '@kesher/projections/analytics/answer-sources/answer-sources.projection';
import { answerSourceQueries } from '@kesher/projections/analytics/answer-sources/answer-sources.queries';
import { ALL_OWNERS, ownerScope } from '@kesher/projections/analytics/shared/owner-scope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../platform/sql/sql.port.js';
import { onEverySqlBackend, type OpenSql } from '../../testing/sql-backends.js';
import { eventLog, readModelOn } from '../testing/read-model-fixture.js';

const DAY1 = '2026-04-10';
const DAY2 = '2026-04-11';
const range = { from: DAY1, to: DAY2 };
const dana = ownerScope('dana');
const QA1 = 'qa_aaaaaaaaaaaaaaaaaaaaaaaa';
const QA2 = 'qa_bbbbbbbbbbbbbbbbbbbbbbbb';
const QA3 = 'qa_cccccccccccccccccccccccc';

const owner = (qaId: string): Source => ({
  fileId: qaId,
  filename: 'Answer from the owner',
  sourceUrl: null,
  section: null,
});
const file: Source = { fileId: 'file-1', filename: 'prices.pdf', sourceUrl: null, section: null };

/**
 * Given: Dana's visitors ask over two days; some answers come from her Q&A, some from a file, some from
 * nothing. She turns one unanswered question into a Q&A from its conversation, deletes another Q&A, and a
 * visitor asks for their conversation to be erased. Noa (another owner) has her own.
 */
function history() {
  const log = eventLog(`${DAY1}T09:00:00.000Z`);
  let n = 0;
  const thread = (threadId: string, ownerId: string, assistantId: string, visitor = true) =>
    log.record('ThreadStarted', {
      threadId,
      assistantId,
      assistantOwnerId: ownerId,
      ownerId: visitor ? null : ownerId,
      visitorSessionHash: visitor ? 'a'.repeat(64) : null,
      isPublic: visitor,
      channel: visitor ? 'embed' : 'app',
    });
  /** One question and its answer: the user's message, the run, its completion with these sources. */
  const turn = (threadId: string, question: string, sources: Source[] | 'failed') => {
    const runId = `r${++n}`;
    const events = [
      log.record('MessagePosted', {
        messageId: `m${n}`,
        threadId,
        role: 'user',
        text: question,
        channel: 'embed',
        language: 'en',
        runId: null,
      }),
      log.record('RunRequested', { runId, threadId, assistantId: 'x', deadlineAt: '2026-12-31T00:00:00.000Z' }),
      sources === 'failed'
        ? log.record('RunFailed', { runId, threadId, error: 'The assistant could not answer right now.' })
        : log.record('RunCompleted', {
            runId,
            threadId,
            messageId: `a${n}`,
            responseMs: 100,
            firstTokenMs: 50,
            promptTokens: 1,
            completionTokens: 1,
            sources,
            referredUrl: null,
          }),
    ];
    return events;
  };
  const curated = (qaId: string, ownerId: string, assistantId: string, question: string, sourceThreadId?: string) =>
    log.record('AnswerCurated', {
      assistantId,
      ownerId,
      qaId,
      question,
      answer: 'The owner says so.',
      curatedBy: `account:${ownerId}`,
      ...(sourceThreadId ? { sourceThreadId } : {}),
    });

  const events: RecordedEvent[] = [
    curated(QA1, 'dana', 'a1', 'How much is a haircut?'),
    curated(QA2, 'dana', 'a1', 'Are you open on Saturday?'),
    thread('t1', 'dana', 'a1'),
    ...turn('t1', 'What does a haircut cost?', [owner(QA1)]),
    ...turn('t1', 'Do you sell gift cards?', []),
    ...turn('t1', 'And parking?', 'failed'),
    thread('t2', 'dana', 'a1'),
    ...turn('t2', 'do you sell gift cards', []),
    ...turn('t2', 'Which shampoo do you use?', [file]),
    // The owner's own test chat: not a visitor's question, so never listed.
    thread('t-own', 'dana', 'a1', false),
    ...turn('t-own', 'Do you do weddings?', []),
    thread('t3', 'noa', 'n1'),
    ...turn('t3', 'Is there a student discount?', []),
    curated(QA3, 'noa', 'n1', 'Is there a student discount'),
    ...turn('t3', 'Student discount please', [owner(QA3)]),
  ];
  log.at(`${DAY2}T10:00:00.000Z`);
  events.push(
    thread('t4', 'dana', 'a1'),
    ...turn('t4', 'Haircut price?', [owner(QA1), file]),
    ...turn('t4', 'Open Saturday?', [owner(QA2)]),
    thread('t6', 'dana', 'a2'),
    ...turn('t6', 'Can I bring my dog?', []),
    thread('t5', 'dana', 'a1'),
    ...turn('t5', 'Do you have vegan products?', []),
    ...turn('t5', 'Can I pay by card?', []),
  );
  log.at(`${DAY2}T12:00:00.000Z`);
  events.push(
    // Dana turns the vegan question into a Q&A from its conversation, in her own words.
    curated('qa_dddddddddddddddddddddddd', 'dana', 'a1', 'Are your products vegan?', 't5'),
    log.record('CuratedAnswerDeleted', { assistantId: 'a1', qaId: QA2 }),
    // The card question's visitor asks to be forgotten.
    log.record('SubjectErased', {
      erasureId: 'e1',
      subject: 'thread',
      keyId: 'thread:t5',
      ownerId: 'dana',
      threadId: 't5',
      reason: 'visitor_request',
      actor: 'visitor:x',
      dependentKeys: 0,
    }),
  );
  return events;
}

function suite(name: string, open: OpenSql) {
  describe(`answer sources read model on ${name}`, () => {
    let sql: Sql;
    let close: () => Promise<void>;
    const events = history();

    beforeAll(async () => {
      ({ sql, close } = await open());
      await (await readModelOn(sql, answerSourcesProjection)).apply(...events);
    });
    afterAll(async () => close?.());

    it('counts answers from the Q&A in the period and ranks the Q&A by hits; a deleted Q&A counts but is not listed', async () => {
      const queries = answerSourceQueries(sql);
      // Dana: 10 completed answers (the failed run is none), 3 from her Q&A, 6 with no source.
      expect(await queries.curatedHits(dana, range, { top: 5 })).toEqual({
        answers: 10,
        curated: 3,
        unsourced: 6,
        top: [{ qaId: QA1, assistantId: 'a1', question: 'How much is a haircut?', hits: 2 }],
      });
      const day2 = await queries.curatedHits(dana, { from: DAY2, to: DAY2 }, { top: 5 });
      expect(day2).toMatchObject({ answers: 5, curated: 2, unsourced: 3 });
      expect(await queries.curatedHits(dana, range, { top: 5, assistantId: 'a2' })).toEqual({
        answers: 1,
        curated: 0,
        unsourced: 1,
        top: [],
      });
      // Noa's figures are hers alone; an operator's scope sees both.
      expect(await queries.curatedHits(ownerScope('noa'), range, { top: 5 })).toEqual({
        answers: 2,
        curated: 1,
        unsourced: 1,
        top: [{ qaId: QA3, assistantId: 'n1', question: 'Is there a student discount', hits: 1 }],
      });
      expect((await queries.curatedHits(ALL_OWNERS, range, { top: 5 })).curated).toBe(4);
      expect(await queries.curatedHits(ownerScope('nobody'), range, { top: 5 })).toEqual({
        answers: 0,
        curated: 0,
        unsourced: 0,
        top: [],
      });
    });

    it('lists visitors’ questions answered with no source, newest first, the same question once with its count', async () => {
      const list = await answerSourceQueries(sql).unanswered(dana, range, { limit: 10 });
      // Left out: the owner's own chat, the vegan question (made a Q&A from its conversation), the erased
      // conversation's card question, Noa's question.
      expect(list.list.map((q) => [q.assistantId, q.question, q.times, q.threadId])).toEqual([
        ['a2', 'Can I bring my dog?', 1, 't6'],
        ['a1', 'do you sell gift cards', 2, 't2'],
      ]);
      expect(list).toMatchObject({ total: 3, questions: 2 });
      expect(list.list[0]!.lastAskedAt.toISOString()).toBe(`${DAY2}T10:00:00.000Z`);
      expect((await answerSourceQueries(sql).unanswered(dana, range, { limit: 1 })).list).toHaveLength(1);
      expect((await answerSourceQueries(sql).unanswered(dana, range, { limit: 1 })).total).toBe(3);
      expect(
        (await answerSourceQueries(sql).unanswered(dana, range, { limit: 10, assistantId: 'a1' })).list.map(
          (q) => q.question,
        ),
      ).toEqual(['do you sell gift cards']);
      expect(
        (await answerSourceQueries(sql).unanswered(dana, { from: DAY1, to: DAY1 }, { limit: 10 })).list.map(
          (q) => q.question,
        ),
      ).toEqual(['do you sell gift cards']);
      // Noa's question has a Q&A of the same words since: not listed either.
      expect((await answerSourceQueries(sql).unanswered(ownerScope('noa'), range, { limit: 10 })).list).toEqual([]);
    });

    it('a Q&A with the same question (case, spaces, punctuation aside) takes it off the list', async () => {
      // Applied on top of the history (readModelOn would start the read model over).
      const model = {
        apply: (...later: RecordedEvent[]) => sql.transaction((tx) => answerSourcesProjection.apply(tx, later)),
      };
      const log = eventLog(`${DAY2}T13:00:00.000Z`);
      await model.apply(
        log.record('AnswerCurated', {
          assistantId: 'a1',
          ownerId: 'dana',
          qaId: 'qa_eeeeeeeeeeeeeeeeeeeeeeee',
          question: '  Do you SELL gift cards?? ',
          answer: 'Yes.',
          curatedBy: 'account:dana',
        }),
      );
      expect(
        (await answerSourceQueries(sql).unanswered(dana, range, { limit: 10 })).list.map((q) => q.question),
      ).toEqual(['Can I bring my dog?']);
      // Another owner's Q&A with the same words takes nothing off Dana's list.
      await model.apply(
        log.record('AnswerCurated', {
          assistantId: 'n1',
          ownerId: 'noa',
          qaId: 'qa_ffffffffffffffffffffffff',
          question: 'Can I bring my dog?',
          answer: 'No.',
          curatedBy: 'account:noa',
        }),
      );
      expect((await answerSourceQueries(sql).unanswered(dana, range, { limit: 10 })).total).toBe(1);
      expect(questionKey('  Do you SELL gift cards?? ')).toBe(questionKey('do you sell gift cards'));
      expect(questionKey('יש לכם חניה?')).toBe('יש לכם חניה');
    });

    it('ends the same whether the log comes in one batch or one event at a time', async () => {
      const model = await readModelOn(sql, answerSourcesProjection);
      await model.apply(...events);
      const whole = await model.snapshot();
      await model.reset();
      for (const event of events) await model.apply(event);
      expect(await model.snapshot()).toEqual(whole);
      await model.reset();
      for (let i = 0; i < events.length; i += 4) await model.apply(...events.slice(i, i + 4));
      expect(await model.snapshot()).toEqual(whole);
    });
  });
}

await onEverySqlBackend('answer sources read model', suite);
