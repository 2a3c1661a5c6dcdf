import { describe, expect, it, vi } from 'vitest';
import { readEmbedMessage } from '../../../widget/options';
import { closeMessage, navigateMessage, openRedirect, postToParent, typingMessage } from './parent-window';

function framedWindow() {
  const parent = { postMessage: vi.fn() };
  const assign = vi.fn();
  const win = { parent, location: { assign } } as unknown as Window;
  return { win, parent, assign };
}

describe('messages to the page around the embed (spec part 2 §2)', () => {
  it('has the spec payloads: ASSISTANT_TYPING {isTyping} and NAVIGATE_TO_URL {url}', () => {
    expect(typingMessage(true)).toEqual({ type: 'ASSISTANT_TYPING', isTyping: true });
    expect(typingMessage(false)).toEqual({ type: 'ASSISTANT_TYPING', isTyping: false });
    expect(navigateMessage('https://shop.example/pricing')).toEqual({
      type: 'NAVIGATE_TO_URL',
      url: 'https://shop.example/pricing',
    });
    expect(closeMessage()).toEqual({ type: 'CLOSE_CHAT' });
  });

  it('posts them to the parent window (any origin: the embed cannot know who framed it)', () => {
    const { win, parent } = framedWindow();
    expect(postToParent(typingMessage(true), win)).toBe(true);
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'ASSISTANT_TYPING', isTyping: true }, '*');
  });

  it('has nobody to tell when not framed', () => {
    expect(postToParent(typingMessage(true), window)).toBe(false);
  });

  it('lets the framing page navigate for a redirect, or navigates itself when opened directly', () => {
    const { win, parent, assign } = framedWindow();
    openRedirect('https://shop.example/buy', win);
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'NAVIGATE_TO_URL', url: 'https://shop.example/buy' }, '*');
    expect(assign).not.toHaveBeenCalled();

    const alone = { location: { assign: vi.fn() } } as unknown as Window & {
      location: { assign: ReturnType<typeof vi.fn> };
    };
    (alone as { parent: unknown }).parent = alone;
    openRedirect('https://shop.example/buy', alone);
    expect(alone.location.assign).toHaveBeenCalledWith('https://shop.example/buy');
  });

  it('reads back as the widget reads it; anything else is ignored', () => {
    expect(readEmbedMessage(typingMessage(true))).toEqual({ type: 'ASSISTANT_TYPING', isTyping: true });
    expect(readEmbedMessage(navigateMessage('https://shop.example/'))).toEqual({
      type: 'NAVIGATE_TO_URL',
      url: 'https://shop.example/',
    });
    expect(readEmbedMessage({ type: 'NAVIGATE_TO_URL', url: 'javascript:alert(1)' })).toBeNull();
    expect(readEmbedMessage({ type: 'NAVIGATE_TO_URL', url: '/relative' })).toBeNull();
    expect(readEmbedMessage({ type: 'ASSISTANT_TYPING', isTyping: 'yes' })).toBeNull();
    expect(readEmbedMessage('ASSISTANT_TYPING')).toBeNull();
    expect(readEmbedMessage({ type: 'webpackHotUpdate' })).toBeNull();
  });
});
