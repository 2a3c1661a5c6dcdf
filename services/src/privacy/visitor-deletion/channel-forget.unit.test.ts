import { describe, expect, it } from 'vitest';
import { isConfirmation, isForgetRequest } from './channel-forget.js';

describe("a channel customer's words", () => {
  it('asks to be forgotten in English and Hebrew, however typed', () => {
    for (const text of [
      '/forget',
      '/Forget',
      '  delete my data! ',
      'Delete my data.',
      'forget me',
      'מחקו את המידע שלי',
      'מחק את המידע שלי?',
    ])
      expect(isForgetRequest(text), text).toBe(true);
  });
  it('does not take a question that merely mentions data or forgetting for a request', () => {
    for (const text of [
      'Did you forget my order?',
      'How do you delete my data?',
      'forget',
      'please delete my data tomorrow',
      '',
    ])
      expect(isForgetRequest(text), text).toBe(false);
  });
  it('confirms with yes / כן and little else', () => {
    for (const text of ['yes', 'YES', 'Yes!', 'כן', 'אישור', 'confirm']) expect(isConfirmation(text), text).toBe(true);
    for (const text of ['yes please send me the menu', 'no', 'לא', 'ok'])
      expect(isConfirmation(text), text).toBe(false);
  });
});
