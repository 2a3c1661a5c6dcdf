import { describe, expect, it } from 'vitest';
import { PostMessageBodySchema, RunIdSchema, ThreadIdSchema } from '../http/threads.dto.js';
import {
  chatInputProblem,
  conversationTitleFrom,
  detectLanguage,
  displayText,
  estimateTokens,
  parseRedirect,
  redirectMarker,
} from './chat.js';

describe('chat rules', () => {
  it('estimates tokens as characters / 4, rounded up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcde')).toBe(2);
  });

  it('checks words first, then tokens, with the spec texts', () => {
    expect(chatInputProblem('short question')).toBeUndefined();
    expect(chatInputProblem(Array(101).fill('w').join(' '))).toBe(
      'Message exceeds word limit. Maximum 100 words allowed, but message contains 101 words.',
    );
    expect(chatInputProblem('x'.repeat(1601))).toBe(
      'Message exceeds token limit. Maximum 400 tokens allowed, but message contains approximately 401 tokens.',
    );
  });

  it('detects Hebrew by its letters, even mixed with English', () => {
    expect(detectLanguage('מה המחיר של iPhone?')).toBe('he');
    expect(detectLanguage('What is the price?')).toBe('en');
    expect(detectLanguage('123 ?')).toBe('other');
  });

  it('writes and strips the redirect command line', () => {
    const text = `The plans are on our site.\n\n${redirectMarker('https://shop.example.com/pricing')}`;
    expect(parseRedirect(text)).toEqual({
      text: 'The plans are on our site.',
      redirectUrl: 'https://shop.example.com/pricing',
    });
    expect(parseRedirect('No link here.')).toEqual({ text: 'No link here.', redirectUrl: null });
    expect(parseRedirect('[REDIRECT: javascript:alert(1)]').redirectUrl).toBeNull();
  });

  it('takes every redirect command out of a text a list shows (issue 22 item 5)', () => {
    expect(
      displayText(`Our plans:\nYou can continue here:\n${redirectMarker('https://shop.example.com/pricing')}`),
    ).toBe('Our plans: You can continue here:');
    expect(displayText('See [REDIRECT: https://a.example/x] and [REDIRECT: https://b.example/y]. Bye')).toBe(
      'See and . Bye',
    );
    expect(displayText('Cut off [REDIRECT: https://a.exa')).toBe('Cut off');
    expect(displayText('No marker here.')).toBe('No marker here.');
  });

  it('titles a conversation from its first message, cut at a word (issue 22 item 16)', () => {
    expect(conversationTitleFrom('  When do you bake\nwalnut loaves?  ')).toBe('When do you bake walnut loaves?');
    expect(conversationTitleFrom(null)).toBe('');
    const long = 'How much does the beginner wheel course cost and when does the next group start in the spring?';
    const title = conversationTitleFrom(long);
    expect(title).toBe('How much does the beginner wheel course cost and when does…');
    expect(title.length).toBeLessThanOrEqual(60);
    expect(conversationTitleFrom('א'.repeat(80))).toBe(`${'א'.repeat(59)}…`);
  });

  it('validates message content and ids as the spec says', () => {
    expect(PostMessageBodySchema.safeParse({ content: '  hi  ' }).data).toEqual({ content: 'hi' });
    expect(PostMessageBodySchema.safeParse({ content: ' ' }).error?.issues[0]?.message).toBe(
      'Message content cannot be empty',
    );
    expect(ThreadIdSchema.safeParse('').error?.issues[0]?.message).toBe('Invalid thread ID');
    expect(RunIdSchema.safeParse('run_1').success).toBe(true);
  });
});
