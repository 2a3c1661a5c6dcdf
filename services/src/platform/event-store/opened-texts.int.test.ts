import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSqlSubjectKeys } from '../../privacy/keys/sql-subject-keys.js';
import { onEverySqlBackend } from '../../testing/sql-backends.js';
import { createOpenedTexts } from './opened-texts.js';
import { createPersonalDataCodec, ERASED } from './personal-data.codec.js';
import { withPersonalData } from './personal-data.event-store.js';
import { createSqlEventStore } from './sql-event-store.js';
import { testEvent } from './testing/test-event.js';

const said = (threadId: string, messageId: string, text: string) =>
  testEvent('MessagePosted', {
    messageId,
    threadId,
    role: 'user',
    text,
    channel: 'app',
    language: 'he',
    runId: null,
  });

const textOf = (events: { data: unknown }[]) => events.map((event) => (event.data as { text: string }).text);

await onEverySqlBackend('opened texts', (backend, open) => {
  describe(`texts kept opened (${backend})`, () => {
    it('opens a text once, and reads an erased subject as erased at once, its texts dropped', async () => {
      const { sql, close } = await open();
      const keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32) });
      try {
        const opened = createOpenedTexts();
        const log = withPersonalData(
          await createSqlEventStore({ sql }),
          createPersonalDataCodec(keys, { openedTexts: opened }),
        );
        await log.appendToStream('thread-t1', [said('t1', 'm1', 'שלום, מה המחיר?'), said('t1', 'm2', 'והמשלוח?')], {
          expectedRevision: 'no_stream',
        });
        await log.appendToStream('thread-t2', [said('t2', 'm3', 'another subject')], { expectedRevision: 'no_stream' });
        expect(textOf(await log.readStream('thread-t1'))).toEqual(['שלום, מה המחיר?', 'והמשלוח?']);
        const kept = opened.size();
        expect(kept).toBeGreaterThan(0);
        // Read again: the same texts, nothing more kept.
        expect(textOf(await log.readStream('thread-t1'))).toEqual(['שלום, מה המחיר?', 'והמשלוח?']);
        expect(opened.size()).toBe(kept);
        expect(textOf(await log.readStream('thread-t2'))).toEqual(['another subject']);

        await keys.shred([keys.keyIdOf({ kind: 'thread', threadId: 't1' })]);
        expect(textOf(await log.readStream('thread-t1'))).toEqual([ERASED, ERASED]);
        // Only the other subject's text is still kept.
        expect(opened.size()).toBeLessThan(kept);
        expect(textOf(await log.readStream('thread-t2'))).toEqual(['another subject']);
        await log.close();
      } finally {
        await keys.stop();
        await close();
      }
    });

    it('drops what another process kept opened once it hears of the erasure', async () => {
      const { sql, close } = await open();
      const keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32) });
      // The second process: its own key cache, listening for erasures, its own opened texts.
      const otherKeys = createSqlSubjectKeys({ sql, serverKey: Buffer.alloc(32) });
      try {
        await otherKeys.listen();
        const otherOpened = createOpenedTexts();
        const log = withPersonalData(await createSqlEventStore({ sql }), createPersonalDataCodec(keys));
        const otherLog = withPersonalData(
          await createSqlEventStore({ sql }),
          createPersonalDataCodec(otherKeys, { openedTexts: otherOpened }),
        );
        // The second process wrote and read the conversation; the first one shreds its subject.
        await otherLog.appendToStream('thread-t5', [said('t5', 'm5', 'כתובת: רחוב הרצל 1')], {
          expectedRevision: 'no_stream',
        });
        expect(textOf(await otherLog.readStream('thread-t5'))).toEqual(['כתובת: רחוב הרצל 1']);
        expect(otherOpened.size()).toBeGreaterThan(0);
        await keys.shred([keys.keyIdOf({ kind: 'thread', threadId: 't5' })]);
        await expect.poll(() => otherOpened.size(), { timeout: 30_000 }).toBe(0);
        expect(textOf(await otherLog.readStream('thread-t5'))).toEqual([ERASED]);
        await log.close();
        await otherLog.close();
      } finally {
        await otherKeys.stop();
        await keys.stop();
        await close();
      }
    });

    it('never answers from a kept text once the key’s trust has run out and the key is found gone (a missed notice)', async () => {
      const { sql, close } = await open();
      let now = 1_000_000;
      const keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32), cacheTtlMs: 60_000, now: () => now });
      try {
        const opened = createOpenedTexts();
        const log = withPersonalData(
          await createSqlEventStore({ sql }),
          createPersonalDataCodec(keys, { openedTexts: opened }),
        );
        await log.appendToStream('thread-t9', [said('t9', 'm9', 'my phone is 050-0000000')], {
          expectedRevision: 'no_stream',
        });
        expect(textOf(await log.readStream('thread-t9'))).toEqual(['my phone is 050-0000000']);
        // Shredded by a process whose notice never came: the row says so, this process's cache does not.
        await sql.query(`UPDATE privacy_subject_keys SET sealed_key = NULL, erased_at = now() WHERE key_id = $1`, [
          keys.keyIdOf({ kind: 'thread', threadId: 't9' }),
        ]);
        now += 61_000;
        expect(textOf(await log.readStream('thread-t9'))).toEqual([ERASED]);
        expect(opened.size()).toBe(0);
        await log.close();
      } finally {
        await keys.stop();
        await close();
      }
    });
  });
});

describe('opened texts', () => {
  it('keeps at most its characters, the subject used least lately going first', () => {
    const opened = createOpenedTexts({ maxChars: 100 });
    opened.set('thread:a', 'sealed-a1', 'x'.repeat(30));
    opened.set('thread:b', 'sealed-b1', 'y'.repeat(30));
    expect(opened.get('thread:a', 'sealed-a1')).toBe('x'.repeat(30));
    // thread:b is now the least lately used: a third subject pushes it out.
    opened.set('thread:c', 'sealed-c1', 'z'.repeat(30));
    expect(opened.get('thread:b', 'sealed-b1')).toBeUndefined();
    expect(opened.get('thread:a', 'sealed-a1')).toBe('x'.repeat(30));
    expect(opened.size()).toBeLessThanOrEqual(100);
    opened.forget('all');
    expect(opened.size()).toBe(0);
  });
});
