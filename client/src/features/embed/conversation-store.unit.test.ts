import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_TTL_MS,
  createConversationStore,
  createSessionToken,
  deviceFingerprint,
  embedDomain,
  readConversation,
  storageKey,
  type ConversationInput,
} from './conversation-store';

const DAY = 24 * 60 * 60 * 1000;

const input = (over: Partial<ConversationInput> = {}): ConversationInput => ({
  threadId: 'thread_abc',
  messages: [
    {
      id: 'msg_1',
      role: 'user',
      content: 'Hello',
      timestamp: 1_700_000_000_000,
      hasRedirect: false,
      redirectUrl: null,
    },
  ],
  sessionToken: 'a'.repeat(64),
  deviceFingerprint: '1234abcd',
  domain: 'shop.example',
  shareToken: 'share-1',
  ...over,
});

/** A localStorage that refuses writes past `capacity` characters, like a full browser storage. */
class TinyStorage implements Storage {
  private data = new Map<string, string>();
  constructor(private capacity: number) {}
  get length() {
    return this.data.size;
  }
  key(i: number) {
    return [...this.data.keys()][i] ?? null;
  }
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    const used = [...this.data].filter(([k]) => k !== key).reduce((n, [k, v]) => n + k.length + v.length, 0);
    if (used + key.length + value.length > this.capacity)
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    this.data.set(key, value);
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  clear() {
    this.data.clear();
  }
}

describe('the stored embedded conversation (spec part 2 §3, §9)', () => {
  it('has exactly the spec fields, version "1.0" and 7 days of life', () => {
    const now = 1_700_000_000_000;
    const store = createConversationStore(localStorage, () => now);
    expect(store.save(7, input())).toBe(true);
    const raw = JSON.parse(localStorage.getItem('kesher_embed_conversation_7')!);
    expect(Object.keys(raw).sort()).toEqual([
      'deviceFingerprint',
      'domain',
      'expiresAt',
      'messages',
      'sessionToken',
      'shareToken',
      'threadId',
      'timestamp',
      'version',
    ]);
    expect(raw).toMatchObject({
      threadId: 'thread_abc',
      sessionToken: { token: 'a'.repeat(64) },
      deviceFingerprint: '1234abcd',
      timestamp: now,
      expiresAt: now + 7 * DAY,
      version: '1.0',
      domain: 'shop.example',
      shareToken: 'share-1',
    });
    expect(raw.messages[0]).toEqual({
      id: 'msg_1',
      role: 'user',
      content: 'Hello',
      timestamp: 1_700_000_000_000,
      hasRedirect: false,
      redirectUrl: null,
    });
  });

  it('keeps one key per assistant', () => {
    const store = createConversationStore(localStorage, () => 0);
    store.save(1, input({ threadId: 'thread_one' }));
    store.save(2, input({ threadId: 'thread_two' }));
    expect(storageKey(1)).not.toBe(storageKey(2));
    expect(store.load(1, 'share-1')?.threadId).toBe('thread_one');
    expect(store.load(2, 'share-1')?.threadId).toBe('thread_two');
  });

  it('restores until the 7 days are over, then drops the entry', () => {
    let now = 1_000;
    const store = createConversationStore(localStorage, () => now);
    store.save(3, input());
    now += CONVERSATION_TTL_MS - 1;
    expect(store.load(3, 'share-1')?.threadId).toBe('thread_abc');
    now += 1;
    expect(store.load(3, 'share-1')).toBeNull();
    expect(localStorage.getItem(storageKey(3))).toBeNull();
  });

  it('restores only through the same share link', () => {
    const store = createConversationStore(localStorage, () => 0);
    store.save(4, input({ shareToken: 'old-link' }));
    expect(store.load(4, 'new-link')).toBeNull();
    expect(localStorage.getItem(storageKey(4))).toBeNull();
  });

  it('ignores corrupt or foreign entries', () => {
    localStorage.setItem(storageKey(5), '{not json');
    expect(createConversationStore(localStorage, () => 0).load(5, 'share-1')).toBeNull();
    expect(
      readConversation(
        JSON.stringify({ ...input(), sessionToken: { token: 'x' }, version: '2.0', expiresAt: 1, timestamp: 0 }),
      ),
    ).toBeNull();
  });

  it('cleans expired entries when storage is full, then saves', () => {
    let now = 0;
    const storage = new TinyStorage(1200);
    const store = createConversationStore(storage, () => now);
    expect(store.save(1, input())).toBe(true); // expires at 7 days
    now = 3 * DAY;
    expect(store.save(2, input())).toBe(true); // expires at 10 days
    const big = input({ messages: [{ id: 'm', role: 'assistant', content: 'x'.repeat(300), timestamp: 0 }] });
    now = 5 * DAY; // nothing expired yet: the storage really is full
    expect(store.save(3, big)).toBe(false);
    now = 8 * DAY; // #1 expired, #2 alive
    expect(store.save(3, big)).toBe(true);
    expect(storage.getItem(storageKey(1))).toBeNull();
    expect(storage.getItem(storageKey(2))).not.toBeNull();
    expect(store.load(3, 'share-1')?.messages[0]?.content).toHaveLength(300);
  });

  it('reports a save that fails even after the clean-up, without throwing', () => {
    const storage = new TinyStorage(100);
    expect(createConversationStore(storage, () => 0).save(1, input())).toBe(false);
  });

  it('works without storage (a browser that blocks it in frames)', () => {
    const store = createConversationStore(null);
    expect(store.save(1, input())).toBe(false);
    expect(store.load(1, 'share-1')).toBeNull();
  });

  it('makes 64 hex character session tokens from crypto.getRandomValues', () => {
    const token = createSessionToken();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(createSessionToken()).not.toBe(token);
    const fixed = createSessionToken({
      getRandomValues: <T extends ArrayBufferView | null>(array: T) => (
        new Uint8Array((array as unknown as Uint8Array).buffer).fill(171),
        array
      ),
    });
    expect(fixed).toBe('ab'.repeat(32));
  });

  it('fingerprints the device as a stable short hash and names the embedding site', () => {
    expect(deviceFingerprint(['agent', 'en', 'Asia/Jerusalem'])).toBe(
      deviceFingerprint(['agent', 'en', 'Asia/Jerusalem']),
    );
    expect(deviceFingerprint(['agent', 'he', 'Asia/Jerusalem'])).not.toBe(
      deviceFingerprint(['agent', 'en', 'Asia/Jerusalem']),
    );
    expect(deviceFingerprint()).toMatch(/^[0-9a-f]{8}$/);
    expect(embedDomain()).toBe(window.location.hostname);
    const framed = {
      location: { ancestorOrigins: ['https://shop.example'], hostname: 'kesher.app' },
      parent: {},
      document: { referrer: '' },
    } as unknown as Window;
    expect(embedDomain(framed)).toBe('shop.example');
    const viaReferrer = {
      location: { hostname: 'kesher.app' },
      parent: {},
      document: { referrer: 'https://blog.example/post' },
    } as unknown as Window;
    expect(embedDomain(viaReferrer)).toBe('blog.example');
  });
});

describe('a restored answer names its sources as before', () => {
  it('keeps a crawled page source title (issue 22 item 6)', () => {
    const sources = [
      {
        fileId: 'file-1',
        filename: 'shop.example-bike-c3f920c5.html',
        sourceUrl: 'https://shop.example/bike',
        title: 'City Bike',
      },
      { fileId: 'file-2', filename: 'menu.txt', sourceUrl: null },
    ];
    const stored = {
      ...input({
        messages: [
          {
            id: 'msg_2',
            role: 'assistant',
            content: 'Bikes.',
            timestamp: 1,
            hasRedirect: false,
            redirectUrl: null,
            sources,
          },
        ],
      }),
      sessionToken: { token: 'a'.repeat(64) },
      version: '1.0',
      expiresAt: Date.now() + DAY,
      timestamp: 0,
    };
    expect(readConversation(JSON.stringify(stored))?.messages[0]?.sources).toEqual(sources);
  });
});
