import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '@/lib/safe-storage';
import { createConversationStore, storageKey } from './conversation-store';
import { openConversationStorage } from './storage-bridge';

/** A framed window whose localStorage the browser refuses (third-party storage blocked). */
function framedWindow() {
  const events = new EventTarget();
  const parent = { postMessage: vi.fn() };
  const win = {
    parent,
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
  } as unknown as Window;
  const reply = (data: unknown, source: unknown = parent, origin = 'https://shop.example') =>
    events.dispatchEvent(Object.assign(new Event('message'), { data, source, origin }));
  return { win, parent, reply };
}

function blockStorage() {
  vi.spyOn(window, 'localStorage', 'get').mockImplementation(() => {
    throw new DOMException(
      "Failed to read the 'localStorage' property from 'Window': Access is denied for this document.",
      'SecurityError',
    );
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks(); // before the shared clean-up touches localStorage
});

describe('where the embedded conversation is stored', () => {
  it("uses the frame's own localStorage when the browser allows it", async () => {
    await expect(openConversationStorage()).resolves.toBe(localStorage);
  });

  it("keeps it in the customer's page through widget.js when third-party storage is blocked", async () => {
    blockStorage();
    const { win, parent, reply } = framedWindow();
    const opening = openConversationStorage(win);
    expect(parent.postMessage).toHaveBeenCalledWith({ type: 'KESHER_STORAGE_REQUEST' }, '*');
    reply({ type: 'KESHER_STORAGE_SNAPSHOT', entries: {} }, { other: 'window' }); // not from the parent: ignored
    const stored = JSON.stringify({
      threadId: 'thread_1',
      messages: [],
      sessionToken: { token: 't'.repeat(64) },
      deviceFingerprint: '',
      timestamp: 0,
      expiresAt: Date.now() + 60_000,
      version: '1.0',
      domain: 'shop.example',
      shareToken: 's',
    });
    reply({ type: 'KESHER_STORAGE_SNAPSHOT', entries: { [storageKey(4)]: stored, language: 'en' } });
    const storage = await opening;
    expect(storage.getItem('language')).toBeNull(); // only conversations pass the bridge

    const store = createConversationStore(storage);
    expect(store.load(4, 's')?.threadId).toBe('thread_1');
    store.save(5, {
      threadId: 'thread_5',
      messages: [],
      sessionToken: 'u'.repeat(64),
      deviceFingerprint: '',
      domain: 'shop.example',
      shareToken: 's',
    });
    expect(parent.postMessage).toHaveBeenLastCalledWith(
      { type: 'KESHER_STORAGE_SET', key: storageKey(5), value: storage.getItem(storageKey(5)) },
      'https://shop.example',
    );
    store.remove(5);
    expect(parent.postMessage).toHaveBeenLastCalledWith(
      { type: 'KESHER_STORAGE_REMOVE', key: storageKey(5) },
      'https://shop.example',
    );
  });

  it('falls back to memory when nobody answers (a page without widget.js)', async () => {
    blockStorage();
    vi.useFakeTimers();
    const { win } = framedWindow();
    const opening = openConversationStorage(win, 1500);
    await vi.advanceTimersByTimeAsync(1500);
    const storage = await opening;
    storage.setItem('k', 'v');
    expect(storage.getItem('k')).toBe('v');
  });

  it('memory storage behaves like Storage', () => {
    const changes: [string, string | null][] = [];
    const storage = memoryStorage({ a: '1' }, (key, value) => changes.push([key, value]));
    storage.setItem('b', '2');
    expect(storage.length).toBe(2);
    expect(storage.key(1)).toBe('b');
    storage.clear();
    expect(storage.length).toBe(0);
    expect(changes).toEqual([
      ['b', '2'],
      ['a', null],
      ['b', null],
    ]);
  });
});
