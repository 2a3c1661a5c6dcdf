import { knowledgeQueries } from '@kesher/projections/knowledge/knowledge.queries';
import { defaultRetrievalTuning, retrieve } from './search/retrieve.js';
import { createKnowledgeService } from './knowledge-service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onEverySqlBackend, type OpenSql } from '../testing/sql-backends.js';
import { fixture } from './extract/fixtures.js';
import { buildDocx } from './testing/office-builders.js';
import { createKnowledgeHarness, type KnowledgeHarness } from './testing/knowledge-harness.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

const bakery = buildDocx([
  { heading: 'Returns' },
  {
    paragraph:
      'You can return any item within 14 days of purchase with the original receipt. Refunds go back to the card you paid with.',
  },
  { heading: 'Delivery' },
  {
    paragraph:
      'We deliver across the city every weekday. Delivery is free for orders above 300 shekels; otherwise it costs 25 shekels.',
  },
]);
const hebrewShop = utf8(
  'החנות פתוחה בימים ראשון עד חמישי משמונה בבוקר עד שבע בערב.\n\n' +
    'בבית הקפה שליד החנות מגישים ארוחת בוקר ישראלית עד הצהריים.\n\n' +
    'המשלוחים לאילת נמשכים עד שבעה ימים ועולים ארבעים וחמישה שקלים.',
);

function suite(name: string, open: OpenSql) {
  describe(`knowledge read model on ${name}`, () => {
    let k: KnowledgeHarness;
    let close: () => Promise<void>;
    beforeAll(async () => {
      const opened = await open();
      close = opened.close;
      k = await createKnowledgeHarness(opened.sql);
    });
    afterAll(async () => close?.());

    it('lists an uploaded file as pending, then ready, and finds its passages in English and Hebrew', async () => {
      const { uploaded } = await k.addFile({
        fileId: 'file-en',
        assistantId: 'asst-1',
        filename: 'policy.docx',
        kind: 'docx',
        bytes: bakery,
      });
      await k.addFile({
        fileId: 'file-he',
        assistantId: 'asst-1',
        filename: 'חנות.txt',
        kind: 'txt',
        bytes: hebrewShop,
        sourceUrl: 'https://shop.example/about',
      });
      const queries = knowledgeQueries(k.sql);
      const files = await queries.listFiles('owner-1', 'asst-1');
      expect(files.map((file) => [file.id, file.status, file.filename])).toEqual([
        ['file-en', 'ready', 'policy.docx'],
        ['file-he', 'ready', 'חנות.txt'],
      ]);
      expect(files[0]).toMatchObject({ bytes: uploaded.bytes, kind: 'docx', language: 'en', sourceUrl: null });

      const english = await retrieve(k.sql, { assistantId: 'asst-1', question: 'How much does delivery cost?' });
      expect(english[0]).toMatchObject({
        fileId: 'file-en',
        filename: 'policy.docx',
        section: 'Delivery',
        sourceUrl: null,
      });
      expect(english[0]!.text).toContain('free for orders above 300 shekels');

      // Asked with prefixes and inflections the text does not use: "בבית הקפה" / "למשלוח" / "באילת".
      const breakfast = await retrieve(k.sql, {
        assistantId: 'asst-1',
        question: 'עד מתי מגישים ארוחת בוקר בבית הקפה?',
      });
      expect(breakfast[0]).toMatchObject({ fileId: 'file-he', sourceUrl: 'https://shop.example/about' });
      expect(breakfast[0]!.text).toContain('ארוחת בוקר');
      const eilat = await retrieve(k.sql, { assistantId: 'asst-1', question: 'כמה עולה משלוח לאילת?' });
      expect(eilat[0]!.fileId).toBe('file-he');
    });

    it('asks one statement per question, on either path, and a spent posting budget keeps the rarest word', async () => {
      let statements = 0;
      const asked: { prepared?: boolean }[] = [];
      const counted = {
        query: ((text: string, params?: unknown[], options?: { prepared?: boolean }) => {
          statements++;
          asked.push(options ?? {});
          return k.sql.query(text, params, options);
        }) as typeof k.sql.query,
      };
      const question = 'How much does delivery cost?';
      const byReading = await retrieve(counted, { assistantId: 'asst-1', question });
      expect(statements).toBe(1);
      // Kept prepared: planning it again cost every chat turn 2–12 ms.
      expect(asked).toEqual([{ prepared: true }]);
      // Past the passage count the index is asked term by term: the same passages (a chat turn's one round trip still).
      const byIndex = await retrieve(
        counted,
        { assistantId: 'asst-1', question },
        {
          ...defaultRetrievalTuning,
          readPassagesUpTo: 0,
        },
      );
      expect(statements).toBe(2);
      expect(byIndex).toEqual(byReading);
      expect(byReading[0]!.text).toContain('free for orders above 300 shekels');
      // A budget of one posting keeps only the rarest form, the first asked between equals: "receipt" (the
      // Returns passage alone) before "breakfast" (the Hebrew page alone, by its translation).
      const rarest = await retrieve(
        counted,
        { assistantId: 'asst-1', question: 'receipt breakfast' },
        {
          ...defaultRetrievalTuning,
          postingBudget: 1,
        },
      );
      expect(rarest.map((passage) => passage.section)).toEqual(['Returns']);
      const unbounded = await retrieve(counted, { assistantId: 'asst-1', question: 'receipt breakfast' });
      expect(unbounded.map((passage) => passage.fileId).sort()).toEqual(['file-en', 'file-he']);
    });

    it('looks each term up in the index even where the table is small enough for the planner to prefer a scan', async () => {
      // Then every passage's terms were fetched and unpacked once per question term (500 passages: ~120 ms a
      // question against ~9 ms by the index; ops/bench/retrieval-paths.bench.ts).
      const question = 'How much does delivery cost?';
      const byIndex = { ...defaultRetrievalTuning, readPassagesUpTo: 0 };
      const counted = await k.sql.transaction(async (tx) => {
        const found = await retrieve(tx, { assistantId: 'asst-1', question }, byIndex);
        // This transaction's own scans of the passages' table (pg_stat_xact_*: nothing else counts in it).
        const { rows } = await tx.query<{ seq_scan: string; idx_scan: string | null }>(
          `SELECT seq_scan::text, idx_scan::text FROM pg_stat_xact_user_tables WHERE relname = 'knowledge_chunks'`,
        );
        return { found, scans: rows[0] };
      });
      expect(counted.found[0]!.text).toContain('free for orders above 300 shekels');
      // At most a scan or two to join the few passages kept, never one per question term (there were 28–30).
      expect(Number(counted.scans!.seq_scan)).toBeLessThanOrEqual(2);
    });

    it("reads the passages and the owner's curated answers in one statement, the matching answer first", async () => {
      let statements = 0;
      const counted = {
        ...k.sql,
        query: ((text: string, params?: unknown[]) => {
          statements++;
          return k.sql.query(text, params);
        }) as typeof k.sql.query,
      };
      const knowledge = createKnowledgeService({ readDb: counted, blobs: k.blobs });
      try {
        const question = 'How much does delivery cost?';
        const without = await knowledge.retrieve({ assistantId: 'asst-1', question });
        expect(statements).toBe(1);
        expect(without.some((passage) => passage.curated)).toBe(false);
        await k.sql.query(
          `INSERT INTO curated_answers (qa_id, assistant_id, owner_id, question, answer, created_at, updated_at)
           VALUES ('qa_delivery', 'asst-1', 'owner-1', 'What does delivery cost?', 'Delivery costs 25 shekels, free above 300.', now(), now()),
                  ('qa_other', 'asst-2', 'owner-1', 'What does delivery cost?', 'Another assistant''s answer.', now(), now())`,
        );
        const withQa = await knowledge.retrieve({ assistantId: 'asst-1', question });
        expect(statements).toBe(2);
        expect(withQa[0]).toMatchObject({
          fileId: 'qa_delivery',
          curated: true,
          text: expect.stringContaining('25 shekels'),
        });
        // The passages behind it are exactly what retrieval alone finds.
        expect(withQa.slice(1)).toEqual(await retrieve(k.sql, { assistantId: 'asst-1', question }));
        expect(withQa.map((passage) => passage.text).join(' ')).not.toContain("Another assistant's answer");
        // A question with no searchable words asks no retrieval; the curated answers are still read (and matched).
        await knowledge.retrieve({ assistantId: 'asst-1', question: 'what is it?' });
        expect(statements).toBe(3);
      } finally {
        await k.sql.query(`DELETE FROM curated_answers WHERE qa_id IN ('qa_delivery', 'qa_other')`);
        await knowledge.close();
      }
    });

    it('never returns another assistant’s passages, and answers nothing for nothing', async () => {
      await k.addFile({
        fileId: 'file-other',
        assistantId: 'asst-2',
        filename: 'other.txt',
        kind: 'txt',
        bytes: utf8('Delivery to Eilat takes two weeks and costs a fortune.'),
      });
      const passages = await retrieve(k.sql, {
        assistantId: 'asst-1',
        question: 'delivery Eilat two weeks fortune',
        k: 10,
      });
      expect(passages.every((passage) => passage.fileId !== 'file-other')).toBe(true);
      expect(await retrieve(k.sql, { assistantId: 'asst-1', question: 'zebra quantum' })).toEqual([]);
      expect(await retrieve(k.sql, { assistantId: 'asst-1', question: 'what is it?' })).toEqual([]);
      expect(await retrieve(k.sql, { assistantId: 'asst-none', question: 'delivery' })).toEqual([]);
    });

    it('keeps one set of passages for the same bytes uploaded twice, until the last copy is deleted', async () => {
      const bytes = utf8('Gift cards are valid for three years and can be used in every branch.');
      await k.addFile({
        fileId: 'gift-1',
        assistantId: 'asst-3',
        filename: 'gifts.txt',
        kind: 'txt',
        bytes,
        at: new Date('2026-01-01T10:00:00Z'),
      });
      await k.addFile({
        fileId: 'gift-2',
        assistantId: 'asst-3',
        filename: 'gifts (copy).txt',
        kind: 'txt',
        bytes,
        at: new Date('2026-01-02T10:00:00Z'),
      });
      const chunkRows = async () =>
        Number(
          (
            await k.sql.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM knowledge_chunks WHERE assistant_id = 'asst-3'`,
            )
          ).rows[0]!.n,
        );
      expect(await chunkRows()).toBe(1);
      expect((await knowledgeQueries(k.sql).listFiles('owner-1', 'asst-3')).map((file) => file.status)).toEqual([
        'ready',
        'ready',
      ]);
      expect(await retrieve(k.sql, { assistantId: 'asst-3', question: 'gift cards valid' })).toHaveLength(1);
      expect(
        (await knowledgeQueries(k.sql).findByContent('owner-1', 'asst-3', (await k.blobs.put(bytes)).sha256))?.id,
      ).toBe('gift-1');

      await k.deleteFile('gift-1', 'asst-3');
      expect(await chunkRows()).toBe(1);
      expect((await retrieve(k.sql, { assistantId: 'asst-3', question: 'gift cards' }))[0]).toMatchObject({
        fileId: 'gift-2',
        filename: 'gifts (copy).txt',
      });

      await k.deleteFile('gift-2', 'asst-3');
      expect(await chunkRows()).toBe(0);
      expect(await retrieve(k.sql, { assistantId: 'asst-3', question: 'gift cards' })).toEqual([]);
      const stats = await k.sql.query(
        `SELECT * FROM knowledge_term_stats WHERE assistant_id = 'asst-3' UNION ALL SELECT assistant_id, '', chunks FROM knowledge_assistant_stats WHERE assistant_id = 'asst-3'`,
      );
      expect(stats.rows).toEqual([]);
    });

    it('records failures with the owner-facing reason and survives facts it cannot use', async () => {
      await k.addFile({
        fileId: 'locked',
        assistantId: 'asst-4',
        filename: 'locked.pdf',
        kind: 'pdf',
        bytes: fixture('encrypted.pdf'),
      });
      const locked = await knowledgeQueries(k.sql).getFile('owner-1', 'locked');
      expect(locked).toMatchObject({
        status: 'failed',
        statusReason: 'The PDF is password-protected. Remove the password and upload it again.',
      });

      // An ingestion whose blobs are gone, an ingestion and a deletion of files never uploaded: no throw.
      await k.apply(
        k.record('KnowledgeFileUploaded', {
          fileId: 'lost',
          assistantId: 'asst-4',
          ownerId: 'owner-1',
          filename: 'lost.txt',
          kind: 'txt',
          bytes: 5,
          contentSha256: 'c'.repeat(64),
          sourceUrl: null,
        }),
      );
      await k.apply(
        k.record('KnowledgeFileIngested', {
          fileId: 'lost',
          assistantId: 'asst-4',
          textSha256: 'd'.repeat(64),
          chunksSha256: 'e'.repeat(64),
          chunkCount: 1,
          characters: 5,
          language: 'en',
          elapsedMs: 1,
        }),
        k.record('KnowledgeFileIngested', {
          fileId: 'ghost',
          assistantId: 'asst-4',
          textSha256: 'd'.repeat(64),
          chunksSha256: 'e'.repeat(64),
          chunkCount: 1,
          characters: 5,
          language: 'en',
          elapsedMs: 1,
        }),
        k.record('KnowledgeFileDeleted', { fileId: 'ghost', assistantId: 'asst-4' }),
      );
      expect(await knowledgeQueries(k.sql).getFile('owner-1', 'lost')).toMatchObject({
        status: 'failed',
        statusReason: 'The extracted text of this file is no longer available. Upload the file again.',
      });
    });

    it('serves the text with its URL line, only to its owner, and sums storage per owner', async () => {
      const queries = knowledgeQueries(k.sql);
      const text = await queries.fileText('owner-1', 'file-he');
      expect(text!.startsWith('URL: https://shop.example/about\n\nהחנות פתוחה')).toBe(true);
      expect(await queries.fileText('owner-1', 'file-en')).toMatch(/^Returns\n\nYou can return/);
      expect(await queries.fileText('someone-else', 'file-he')).toBeUndefined();
      expect(await queries.getFile('someone-else', 'file-he')).toBeUndefined();
      expect(await queries.listFiles('someone-else', 'asst-1')).toEqual([]);
      const listed = [
        ...(await queries.listFiles('owner-1', 'asst-1')),
        ...(await queries.listFiles('owner-1', 'asst-2')),
        ...(await queries.listFiles('owner-1', 'asst-4')),
      ];
      // Failed files keep no bytes and count no storage (asst-4's two are failed).
      expect(listed.filter((file) => file.status === 'failed')).toHaveLength(2);
      expect(await queries.storageUsed('owner-1')).toBe(
        listed.filter((file) => file.status !== 'failed').reduce((sum, file) => sum + file.bytes, 0),
      );
      expect(await queries.storageUsed('someone-else')).toBe(0);
    });

    it('rebuilds to exactly the same read model from the events', async () => {
      const before = await k.snapshot();
      await k.replay();
      expect(await k.snapshot()).toEqual(before);
    });
  });
}

await onEverySqlBackend('knowledge read model', suite);
