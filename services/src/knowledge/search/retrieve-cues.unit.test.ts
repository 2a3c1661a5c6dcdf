import { describe, expect, it } from 'vitest';
import { createTestPglite } from '../../testing/test-database.js';
import { createKnowledgeHarness } from '../testing/knowledge-harness.js';
import { retrieve } from './retrieve.js';

const text = (value: string) => new TextEncoder().encode(value);

describe('retrieval weighs the subject over the words naming the kind of answer (issue 22 item 4)', () => {
  it('finds the one passage naming the asked item before a page that only says "עולה"', async () => {
    const sql = await createTestPglite();
    try {
      const harness = await createKnowledgeHarness(sql);
      const assistantId = 'asst-cues';
      // Several passages in both languages; only the tools page names the ladder, and it never says "עולה".
      const files: [string, string][] = [
        ['shipping-he.txt', 'משלוח עד הבית עולה 30 ש"ח. הזמנה שמגיעה עד 12:00 יוצאת באותו היום.'],
        ['garden-he.txt', 'שתילי עגבניות עולים 12 ש"ח ליחידה. עציץ חרס גדול עולה 45 ש"ח.'],
        ['classes-he.txt', 'סדנת גינון לילדים עולה 60 ש"ח ומתקיימת בימי שלישי.'],
        ['tools.txt', 'Aluminium ladder, 5 steps: 249 ILS. Work gloves: 19 ILS a pair.'],
        ['about.txt', 'A family garden shop in the Galilee since 1990, open Sunday to Friday.'],
      ];
      for (const [filename, body] of files)
        await harness.addFile({ assistantId, filename, kind: 'txt', bytes: text(body) });
      const passages = await retrieve(sql, { assistantId, question: 'כמה עולה הסולם?', k: 1 });
      expect(passages.map((passage) => passage.filename)).toContain('tools.txt');
    } finally {
      await sql.close();
    }
  });
});
