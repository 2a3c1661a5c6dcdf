import { chatInputProblem } from '@kesher/contracts/rules/chat';
import { describe, expect, it } from 'vitest';
import { canSend, checkInput, inputProblemText } from './input-rules';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('the chat input, owner and visitor alike (spec §5)', () => {
  it('counts words and estimated tokens (characters / 4, rounded up)', () => {
    expect(checkInput('')).toMatchObject({ words: 0, tokens: 0, empty: true, problem: null });
    expect(checkInput('  When do you open?  ')).toMatchObject({ words: 4, tokens: 6, empty: false });
  });

  it('warns above 80 words and errs above 100', () => {
    expect(checkInput(words(80)).wordLevel).toBe('ok');
    expect(checkInput(words(81)).wordLevel).toBe('warning');
    expect(checkInput(words(100)).wordLevel).toBe('warning');
    expect(checkInput(words(100)).problem).toBeNull();
    expect(checkInput(words(101))).toMatchObject({ wordLevel: 'error', problem: { kind: 'words', count: 101 } });
  });

  it('warns above 320 tokens and errs above 400', () => {
    expect(checkInput('x'.repeat(1280)).tokenLevel).toBe('ok'); // 320 tokens
    expect(checkInput('x'.repeat(1281)).tokenLevel).toBe('warning'); // 321
    expect(checkInput('x'.repeat(1600)).problem).toBeNull(); // 400
    expect(checkInput('x'.repeat(1601))).toMatchObject({
      tokenLevel: 'error',
      problem: { kind: 'tokens', count: 401 },
    });
  });

  it('agrees with the shared rule the server applies', () => {
    for (const text of ['', 'hello', words(101), 'x'.repeat(1601), `${words(50)} ${'y'.repeat(1500)}`]) {
      expect(checkInput(text).problem !== null).toBe(chatInputProblem(text) !== undefined);
    }
  });

  it('allows Send only with text, nothing in flight and a valid input', () => {
    expect(canSend(checkInput('hi'), false)).toBe(true);
    expect(canSend(checkInput('   '), false)).toBe(false);
    expect(canSend(checkInput('hi'), true)).toBe(false);
    expect(canSend(checkInput(words(101)), false)).toBe(false);
  });

  it('names the broken rule and its count for the page texts (wordLimit, tokenLimit)', () => {
    const t = (key: string, vars: { count: number }) => `${key}:${vars.count}`;
    expect(inputProblemText(checkInput('hello'), t)).toBeNull();
    expect(inputProblemText(checkInput(words(101)), t)).toBe('wordLimit:101');
    expect(inputProblemText(checkInput('x'.repeat(1601)), t)).toBe('tokenLimit:401');
  });
});
