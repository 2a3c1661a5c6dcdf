import { detectLanguage, parseRedirect } from '@kesher/contracts';
import type { RetrievedPassage } from '../knowledge/search/retrieve.js';
import { describe, expect, it } from 'vitest';
import type { AnswerRequest } from './answer-provider.port.js';
import { composeAnswer, createBuiltinProvider } from './builtin.provider.js';
import { buildPrompt } from './prompt.js';

const passage = (text: string, extra: Partial<RetrievedPassage> = {}): RetrievedPassage => ({
  fileId: 'f1',
  filename: 'shop.txt',
  sourceUrl: null,
  section: null,
  text,
  score: 1,
  ...extra,
});

const hours = passage(
  'Welcome to the bakery. Opening hours: Sunday to Thursday, 7:00 to 19:00. We bake sourdough every morning.',
);
const hebrewHours = passage('שעות הפתיחה של המאפייה: ראשון עד חמישי, 7:00 עד 19:00. אנחנו אופים לחם מחמצת כל בוקר.', {
  filename: 'מאפייה.txt',
});
const pricing = passage('Sourdough loaf price: 24 shekels. Order online on the shop page.', {
  fileId: 'f2',
  filename: 'pricing',
  sourceUrl: 'https://bakery.example.com/pricing',
});

const request = (question: string, passages: RetrievedPassage[], salesMode = false): AnswerRequest => ({
  question,
  language: detectLanguage(question),
  history: [],
  assistant: {
    name: 'Bakery',
    instructions: 'Be kind.',
    salesMode: { enabled: salesMode, salesPrompt: 'Mention the daily bread.' },
  },
  passages,
});

describe('builtin answer engine', () => {
  it('answers with the sentence from the knowledge that covers the question, and leaves the sources to the sources line', () => {
    const answer = composeAnswer(request('What are your opening hours?', [hours]));
    expect(answer).toBe('Opening hours: Sunday to Thursday, 7:00 to 19:00.');
    // The chat shows the run's sources under the answer; naming them in the text too showed them twice.
    expect(answer).not.toMatch(/Sources?:|shop\.txt/);
  });

  it('answers a Hebrew question in Hebrew', () => {
    const answer = composeAnswer(request('מה שעות הפתיחה?', [hebrewHours]));
    expect(answer).toContain('ראשון עד חמישי');
    expect(answer).not.toContain('מקור');
  });

  it('quotes only the file that answers, never a sentence of another file that shares the words', () => {
    const handbook = passage('On Friday we are open from 7:00 to 14:00, and on Saturday the bakery is closed.', {
      filename: 'handbook.docx',
    });
    const cache = passage(
      'Files that are still open by a running report are skipped and cleaned the following Friday. The weekly cleanup job runs every Friday at 02:00.',
      {
        fileId: 'f9',
        filename: 'cache.pdf',
      },
    );
    const answer = composeAnswer(request('When are you open on Friday?', [cache, handbook]));
    expect(answer).toBe('On Friday we are open from 7:00 to 14:00, and on Saturday the bakery is closed.');
  });

  it('prefers the sentence holding the kind of answer asked for: a phone number, not a version number', () => {
    const handbook = passage('You can call us on 08-555-0142 during opening hours.', { filename: 'handbook.docx' });
    const cache = passage(
      'The version number is written in the first line of every cache file. Do not call the phone line for cache problems.',
      { fileId: 'f9', filename: 'cache.pdf' },
    );
    expect(composeAnswer(request('What is your phone number?', [cache, handbook]))).toBe(
      'You can call us on 08-555-0142 during opening hours.',
    );
    expect(composeAnswer(request('What is your phone number?', [cache]))).toMatch(/couldn't find an answer/);
  });

  it('adds the next sentence when it names what the matched one only mentions', () => {
    const ceremony = passage(
      'ביום ראשון בבוקר התאספו מאות מבני הקהילה, והתפללו בבית הכנסת לשלום הצאר ולשלום בני ביתו. היה זה בית הכנסת הגדול "אוהל יצחק" שברחוב הדייגים. בראש הטקס עמד הרב שלמה ברודסקי.',
      { filename: 'טקס.txt' },
    );
    const answer = composeAnswer(request('באיזה בית כנסת התפללו לשלום הצאר?', [ceremony]));
    expect(answer).toContain('והתפללו בבית הכנסת לשלום הצאר');
    expect(answer).toContain('"אוהל יצחק"');
    expect(answer).not.toContain('ברודסקי');
  });

  it("answers a question in one language from a text in the other, saying so in the question's language", () => {
    const handbook = passage('Our shop is at 14 Harbor Street, Ashdod, next to the fish market.', {
      filename: 'handbook.docx',
    });
    // Issue 22 item 3: the fact in the question's language, not the other language's sentence.
    expect(composeAnswer(request('איפה אתם נמצאים?', [handbook]))).toBe(
      'לפי המידע שלנו (שכתוב באנגלית), הכתובת: 14 Harbor Street, Ashdod.',
    );
    expect(composeAnswer(request('What are your opening hours?', [hebrewHours]))).toBe(
      'According to our information (written in Hebrew), the hours are Sunday–Thursday 7:00–19:00.',
    );
  });

  it("says plainly, in the question's language, when the knowledge has no answer", () => {
    expect(composeAnswer(request('Do you deliver to Haifa?', [hours]))).toMatch(/couldn't find an answer/);
    expect(composeAnswer(request('האם יש משלוחים לחיפה?', []))).toMatch(/לא מצאתי תשובה/);
  });

  it('in sales mode, refers a buying visitor to the sales page from the knowledge', () => {
    const answer = composeAnswer(
      request('How much does a sourdough loaf cost? I want to buy one', [pricing, hours], true),
    );
    expect(parseRedirect(answer)).toEqual({
      text: expect.stringContaining('24 shekels'),
      redirectUrl: 'https://bakery.example.com/pricing',
    });
    expect(
      parseRedirect(composeAnswer(request('How much does a sourdough loaf cost?', [pricing], false))).redirectUrl,
    ).toBeNull();
    expect(
      parseRedirect(composeAnswer(request('When do you bake sourdough?', [hours, pricing], true))).redirectUrl,
    ).toBeNull();
  });

  it('is deterministic and streams the same text it composes', async () => {
    const provider = createBuiltinProvider();
    let streamed = '';
    let usage = 0;
    let cited: readonly RetrievedPassage[] = [];
    for await (const delta of provider.answer(request('What are your opening hours?', [pricing, hours]))) {
      if (delta.kind === 'text') streamed += delta.text;
      else if (delta.kind === 'cited') cited = delta.passages;
      else usage = delta.completionTokens;
    }
    expect(streamed).toBe(composeAnswer(request('What are your opening hours?', [pricing, hours])));
    expect(usage).toBe(Math.ceil(streamed.length / 4));
    // The run's sources are the passage quoted, and only it.
    expect(cited).toEqual([hours]);
  });
});

describe('prompt building', () => {
  it('grounds the model in numbered passages, the owner instructions and the question language', () => {
    const [system, user] = buildPrompt(request('מה שעות הפתיחה?', [hebrewHours]));
    expect(system!.role).toBe('system');
    expect(system!.content).toContain('never invent facts');
    expect(system!.content).toContain('Be kind.');
    expect(system!.content).toContain('Answer in Hebrew');
    expect(system!.content).toContain('[1] מאפייה.txt');
    expect(user).toEqual({ role: 'user', content: 'מה שעות הפתיחה?' });
  });

  it('gives the sales prompt and the one redirect line the model may use', () => {
    const [system] = buildPrompt(request('I want to buy a loaf, what is the price?', [pricing], true));
    expect(system!.content).toContain('Mention the daily bread.');
    expect(system!.content).toContain('[REDIRECT: https://bakery.example.com/pricing]');
    expect(buildPrompt(request('What is the price?', [pricing]))[0]!.content).not.toContain('SALES MODE');
  });

  it('keeps recent history between the instructions and the question', () => {
    const history = Array.from({ length: 10 }, (_, i) => ({
      role: i % 2 ? ('assistant' as const) : ('user' as const),
      text: `turn ${i}`,
    }));
    const messages = buildPrompt({ ...request('and on Friday?', [hours]), history });
    expect(messages.map((m) => m.content).slice(1, -1)).toEqual([
      'turn 4',
      'turn 5',
      'turn 6',
      'turn 7',
      'turn 8',
      'turn 9',
    ]);
  });
});
