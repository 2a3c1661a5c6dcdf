import { detectLanguage, parseRedirect } from '@kesher/contracts';
import type { RetrievedPassage } from '@kesher/projections/knowledge/knowledge.queries';
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

const hours = passage('Welcome to the bakery. Opening hours: Sunday to Thursday, 7:00 to 19:00. We bake sourdough every morning.');
const hebrewHours = passage('שעות הפתיחה של המאפייה: ראשון עד חמישי, 7:00 עד 19:00. אנחנו אופים לחם מחמצת כל בוקר.', { filename: 'מאפייה.txt' });
const pricing = passage('Sourdough loaf price: 24 shekels. Order online on the shop page.', { fileId: 'f2', filename: 'pricing', sourceUrl: 'https://bakery.example.com/pricing' });

const request = (question: string, passages: RetrievedPassage[], salesMode = false): AnswerRequest => ({
  question,
  language: detectLanguage(question),
  history: [],
  assistant: { name: 'Bakery', instructions: 'Be kind.', salesMode: { enabled: salesMode, salesPrompt: 'Mention the daily bread.' } },
  passages,
});

describe('builtin answer engine', () => {
  it('answers with the sentence from the knowledge that covers the question, and cites its file', () => {
    const answer = composeAnswer(request('What are your opening hours?', [hours]));
    expect(answer).toContain('Opening hours: Sunday to Thursday, 7:00 to 19:00.');
    expect(answer).not.toContain('Welcome to the bakery');
    expect(answer).toMatch(/Source: shop\.txt$/);
  });

  it('answers a Hebrew question in Hebrew', () => {
    const answer = composeAnswer(request('מה שעות הפתיחה?', [hebrewHours]));
    expect(answer).toContain('ראשון עד חמישי');
    expect(answer).toContain('מקור: מאפייה.txt');
  });

  it('says plainly, in the question\'s language, when the knowledge has no answer', () => {
    expect(composeAnswer(request('Do you deliver to Haifa?', [hours]))).toMatch(/couldn't find an answer/);
    expect(composeAnswer(request('האם יש משלוחים לחיפה?', []))).toMatch(/לא מצאתי תשובה/);
  });

  it('in sales mode, refers a buying visitor to the sales page from the knowledge', () => {
    const answer = composeAnswer(request('How much does a sourdough loaf cost? I want to buy one', [pricing, hours], true));
    expect(parseRedirect(answer)).toEqual({ text: expect.stringContaining('24 shekels'), redirectUrl: 'https://bakery.example.com/pricing' });
    expect(parseRedirect(composeAnswer(request('How much does a sourdough loaf cost?', [pricing], false))).redirectUrl).toBeNull();
    expect(parseRedirect(composeAnswer(request('When do you bake sourdough?', [hours, pricing], true))).redirectUrl).toBeNull();
  });

  it('is deterministic and streams the same text it composes', async () => {
    const provider = createBuiltinProvider();
    let streamed = '';
    let usage = 0;
    for await (const delta of provider.answer(request('What are your opening hours?', [hours]))) {
      if (delta.kind === 'text') streamed += delta.text;
      else usage = delta.completionTokens;
    }
    expect(streamed).toBe(composeAnswer(request('What are your opening hours?', [hours])));
    expect(usage).toBe(Math.ceil(streamed.length / 4));
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
    const history = Array.from({ length: 10 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), text: `turn ${i}` }));
    const messages = buildPrompt({ ...request('and on Friday?', [hours]), history });
    expect(messages.map((m) => m.content).slice(1, -1)).toEqual(['turn 4', 'turn 5', 'turn 6', 'turn 7', 'turn 8', 'turn 9']);
  });
});
