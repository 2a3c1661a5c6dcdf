import { describe, expect, it } from 'vitest';

/**
 * Issue 22 item 1: inside a customer's page with third-party storage blocked, merely reading localStorage
 * throws. The public chat's feedback memory then keeps the rating for the visit instead of losing it.
 */
describe('feedback memory with storage refused', () => {
  it('remembers a rating for the visit when reading localStorage throws', async () => {
    const real = window.localStorage;
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        throw new DOMException(
          "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
          'SecurityError',
        );
      },
    });
    try {
      const { feedbackMemory } = await import('./feedback-memory');
      expect(feedbackMemory.get('msg_1')).toBeNull();
      feedbackMemory.set('msg_1', 'like');
      expect(feedbackMemory.get('msg_1')).toBe('like');
    } finally {
      // The shared setup clears localStorage after every test.
      Object.defineProperty(window, 'localStorage', { configurable: true, value: real });
    }
  });
});
