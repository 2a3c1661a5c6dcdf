import { redirectMarker } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { applyGuidelineRules, readGuidelineRules } from './guideline-rules.js';
import { quotedReply, quoteResult } from './builtin-automation.js';
import { readInputs } from './read-inputs.js';

const rules = (...instructions: string[]) =>
  readGuidelineRules(instructions.map((text) => ({ instructions: text, category: 'custom' as const })));

describe('guidelines the built-in engine applies', () => {
  it('reads preferred phrases in English and Hebrew, in either order', () => {
    expect(rules('Use "client" instead of "customer".').replacements).toEqual([{ from: 'customer', to: 'client' }]);
    expect(rules('"cheap" -> "affordable"').replacements).toEqual([{ from: 'cheap', to: 'affordable' }]);
    expect(rules('Never say "problem", say "challenge"').replacements).toEqual([{ from: 'problem', to: 'challenge' }]);
    expect(rules('כתבו "לקוח" במקום "קונה"').replacements).toEqual([{ from: 'קונה', to: 'לקוח' }]);
    expect(rules('במקום "בעיה" כתוב "אתגר"').replacements).toEqual([{ from: 'בעיה', to: 'אתגר' }]);
    expect(rules('Write "usd" as "USD"').replacements).toEqual([{ from: 'usd', to: 'USD' }]);
  });

  it('substitutes whole words only, keeping a leading capital', () => {
    const text = applyGuidelineRules(
      'Customer service helps every customer. Customers wait.',
      rules('Use "client" instead of "customer"'),
    );
    expect(text).toBe('Client service helps every client. Customers wait.');
    expect(applyGuidelineRules('הקונה קיבל. קונה חדש.', rules('"לקוח" במקום "קונה"'))).toBe('הקונה קיבל. לקוח חדש.');
  });

  it('adds the opening and the sign-off once, makes bullets, and keeps the redirect command last', () => {
    const r = rules(
      'Start every answer with "Hi there!"',
      'End every answer with "— The team"',
      'Answer in bullet points',
    );
    const text = applyGuidelineRules(
      `We bake daily. Delivery is free.\nYou can continue here:\n${redirectMarker('https://x.example/buy')}`,
      r,
    );
    // The sign-off goes above the line that introduces the link, never between it and the link (issue 22 item 5).
    expect(text).toBe(
      `Hi there!\n\n- We bake daily.\n- Delivery is free.\n\n— The team\nYou can continue here:\n${redirectMarker('https://x.example/buy')}`,
    );
    expect(
      applyGuidelineRules(
        `Lessons cost 890 ILS.\nYou can continue here:\n\n${redirectMarker('https://x.example/buy')}`,
        rules('Sign off with "— Dana"'),
      ),
    ).toBe(`Lessons cost 890 ILS.\n\n— Dana\nYou can continue here:\n${redirectMarker('https://x.example/buy')}`);
    // Without a command, a closing colon line is just text: the sign-off follows it.
    expect(applyGuidelineRules('Our hours:', rules('Sign off with "— Dana"'))).toBe('Our hours:\n\n— Dana');
    expect(applyGuidelineRules('Done.\n\n— The team', r).match(/— The team/g)).toHaveLength(1);
    expect(rules('סיים כל תשובה ב"בברכה, צוות קראמב"').closing).toBe('בברכה, צוות קראמב');
    expect(rules('חתימה: "צוות קראמב"').closing).toBe('צוות קראמב');
  });

  it('reads nothing from instructions it cannot carry out exactly', () => {
    expect(rules('Be warm and friendly.')).toEqual({ replacements: [], opening: null, closing: null, bullets: false });
  });
});

describe('the built-in engine’s workflow step', () => {
  it('takes the reply a workflow quotes, and quotes an API result as lines', () => {
    expect(quotedReply('Ask: "Please share your order number."')).toBe('Please share your order number.');
    expect(quotedReply('שאל "מה מספר ההזמנה?"')).toBe('מה מספר ההזמנה?');
    expect(quotedReply('Help them politely')).toBeNull();
    expect(quoteResult({ id: 'A1', status: 'shipped', items: [1, 2] })).toBe(
      '- id: A1\n- status: shipped\n- items: [1,2]',
    );
  });

  it('reads inputs from the conversation, newest message first, and names the required ones missing', () => {
    const action = {
      apiInputs: [
        { name: 'order_id', type: 'string' as const, required: true, description: '' },
        { name: 'email', type: 'email' as const, required: true, description: '' },
        { name: 'seats', type: 'number' as const, required: false, description: '' },
      ],
    } as Parameters<typeof readInputs>[0];
    expect(readInputs(action, ['my order id is B-778, mail me at dana@example.com', 'hello'])).toEqual({
      values: { order_id: 'B-778', email: 'dana@example.com' },
      missing: [],
    });
    expect(readInputs(action, ['where is it?']).missing.map((m) => m.name)).toEqual(['order_id', 'email']);
    expect(readInputs(action, ['הזמנה 5521 ל-3 אנשים', 'dana@example.com']).values).toEqual({
      order_id: '5521',
      email: 'dana@example.com',
      seats: 5521,
    });
  });
});
