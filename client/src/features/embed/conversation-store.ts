import { CONVERSATION_PREFIX } from '../../../widget/options';
import type { ChatSource } from '@/lib/chat-core/chat-messages';
import { memoryStorage } from '@/lib/safe-storage';
import { isFramed } from './parent-window';

/**
 * The stored embedded conversation (spec part 2 §3, §4, §9): one localStorage entry per assistant, so a
 * visitor who reloads the customer's page finds their conversation again. It lives 7 days from the last
 * change; a reload restores it only while it has not expired and was made through the same share link.
 * When storage is full, expired entries of every assistant are removed and the save is tried again.
 */
export const STORAGE_VERSION = '1.0';
export const CONVERSATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const STORAGE_PREFIX = CONVERSATION_PREFIX;
/** Long conversations keep their latest messages; the server has the whole thread anyway. */
export const MAX_STORED_MESSAGES = 200;

export const storageKey = (assistantId: number | string) => `${STORAGE_PREFIX}${assistantId}`;

export type Rating = 'like' | 'dislike';

/** A message as stored (spec §3 Message): the text as `content`, the time in milliseconds. */
export interface StoredMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  timestamp: number;
  hasRedirect?: boolean;
  redirectUrl?: string | null;
  /** The visitor's like/dislike, so the buttons show it after a reload. */
  feedback?: Rating;
  /** An answer's sources, so a restored answer still says where it came from. */
  sources?: ChatSource[];
}

/** Exactly the spec's fields. */
export interface StoredConversation {
  threadId: string;
  messages: StoredMessage[];
  sessionToken: { token: string };
  deviceFingerprint: string;
  timestamp: number;
  expiresAt: number;
  version: typeof STORAGE_VERSION;
  domain: string;
  shareToken: string;
}

export type ConversationInput = Pick<
  StoredConversation,
  'threadId' | 'messages' | 'deviceFingerprint' | 'domain' | 'shareToken'
> & { sessionToken: string };

/** A visitor's session token: 32 random bytes as 64 hex characters (crypto.getRandomValues). */
export function createSessionToken(source: Pick<Crypto, 'getRandomValues'> = crypto): string {
  const bytes = source.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The spec's deviceFingerprint: a short hash of stable browser traits (agent, language, time zone).
 * It stays in this browser — it is never sent — and is not used to refuse a restore, since a browser
 * update alone would then drop every conversation.
 */
export function deviceFingerprint(traits: string[] = browserTraits()): string {
  let hash = 0x811c9dc5; // FNV-1a, 32 bits
  for (const char of traits.join('|')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

function browserTraits(): string[] {
  if (typeof navigator === 'undefined') return [];
  let zone = '';
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    // no time zone data
  }
  return [navigator.userAgent, navigator.language, zone];
}

/** The website the chat is embedded in (the parent's host), or this page's host when opened directly. */
export function embedDomain(win: Window = window): string {
  try {
    const ancestors = win.location.ancestorOrigins;
    if (ancestors && ancestors.length > 0) return new URL(ancestors[0]!).hostname;
    if (win.parent !== win && win.document.referrer) return new URL(win.document.referrer).hostname;
  } catch {
    // fall through to our own host
  }
  return win.location.hostname;
}

function isQuotaError(error: unknown): boolean {
  if (!(error instanceof DOMException) && !(error instanceof Error)) return false;
  const code = (error as DOMException).code;
  return (
    error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22 || code === 1014
  );
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object';

function readSources(value: unknown[]): ChatSource[] {
  return value.flatMap((s) =>
    isObject(s) && typeof s.fileId === 'string' && typeof s.filename === 'string'
      ? [
          {
            fileId: s.fileId,
            filename: s.filename,
            sourceUrl: typeof s.sourceUrl === 'string' ? s.sourceUrl : null,
            ...(typeof s.title === 'string' && s.title ? { title: s.title } : {}),
          },
        ]
      : [],
  );
}

function readMessages(value: unknown): StoredMessage[] | null {
  if (!Array.isArray(value)) return null;
  const out: StoredMessage[] = [];
  for (const item of value) {
    if (
      !isObject(item) ||
      typeof item.id !== 'string' ||
      typeof item.content !== 'string' ||
      typeof item.timestamp !== 'number'
    )
      continue;
    if (item.role !== 'user' && item.role !== 'assistant') continue;
    out.push({
      id: item.id,
      role: item.role,
      content: item.content,
      timestamp: item.timestamp,
      hasRedirect: item.hasRedirect === true,
      redirectUrl: typeof item.redirectUrl === 'string' ? item.redirectUrl : null,
      ...(item.feedback === 'like' || item.feedback === 'dislike' ? { feedback: item.feedback } : {}),
      ...(Array.isArray(item.sources) ? { sources: readSources(item.sources) } : {}),
    });
  }
  return out;
}

/** Parses one stored entry; anything malformed or of another version is null. */
export function readConversation(raw: string | null): StoredConversation | null {
  if (!raw) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!isObject(value) || value.version !== STORAGE_VERSION) return null;
  const session = value.sessionToken;
  const messages = readMessages(value.messages);
  if (typeof value.threadId !== 'string' || !value.threadId || !messages) return null;
  if (!isObject(session) || typeof session.token !== 'string' || !session.token) return null;
  if (
    typeof value.expiresAt !== 'number' ||
    typeof value.timestamp !== 'number' ||
    typeof value.shareToken !== 'string'
  )
    return null;
  return {
    threadId: value.threadId,
    messages,
    sessionToken: { token: session.token },
    deviceFingerprint: typeof value.deviceFingerprint === 'string' ? value.deviceFingerprint : '',
    timestamp: value.timestamp,
    expiresAt: value.expiresAt,
    version: STORAGE_VERSION,
    domain: typeof value.domain === 'string' ? value.domain : '',
    shareToken: value.shareToken,
  };
}

/** localStorage, or null where a browser blocks it (third-party frames when third-party cookies are blocked). */
export function browserStorage(): Storage | null {
  try {
    if (typeof localStorage === 'undefined') return null;
    localStorage.getItem(STORAGE_PREFIX); // some browsers hand out the object and refuse its use
    return localStorage;
  } catch {
    return null;
  }
}

export interface ConversationStore {
  /** The assistant's conversation if it is usable: not expired, same share link. Unusable entries are removed. */
  load(assistantId: number, shareToken: string): StoredConversation | null;
  /** Writes the conversation, 7 days from now. False when storage refused it even after the clean-up. */
  save(assistantId: number, input: ConversationInput): boolean;
  remove(assistantId: number): void;
  /** Removes every expired embedded conversation; returns how many. */
  removeExpired(): number;
}

export function createConversationStore(
  storage: Storage | null = browserStorage(),
  now: () => number = Date.now,
): ConversationStore {
  const safely = <T>(fallback: T, fn: (s: Storage) => T): T => {
    if (!storage) return fallback;
    try {
      return fn(storage);
    } catch {
      return fallback;
    }
  };

  const removeExpired = () =>
    safely(0, (s) => {
      const expired: string[] = [];
      for (let i = 0; i < s.length; i++) {
        const key = s.key(i);
        if (!key?.startsWith(STORAGE_PREFIX)) continue;
        const entry = readConversation(s.getItem(key));
        if (!entry || entry.expiresAt <= now()) expired.push(key);
      }
      for (const key of expired) s.removeItem(key);
      return expired.length;
    });

  return {
    load(assistantId, shareToken) {
      return safely(null, (s) => {
        const key = storageKey(assistantId);
        const raw = s.getItem(key);
        if (raw === null) return null;
        const entry = readConversation(raw);
        if (entry && entry.expiresAt > now() && entry.shareToken === shareToken) return entry;
        s.removeItem(key);
        return null;
      });
    },
    save(assistantId, input) {
      return safely(false, (s) => {
        const timestamp = now();
        const entry: StoredConversation = {
          threadId: input.threadId,
          messages: input.messages.slice(-MAX_STORED_MESSAGES),
          sessionToken: { token: input.sessionToken },
          deviceFingerprint: input.deviceFingerprint,
          timestamp,
          expiresAt: timestamp + CONVERSATION_TTL_MS,
          version: STORAGE_VERSION,
          domain: input.domain,
          shareToken: input.shareToken,
        };
        const text = JSON.stringify(entry);
        try {
          s.setItem(storageKey(assistantId), text);
          return true;
        } catch (error) {
          if (!isQuotaError(error) || removeExpired() === 0) return false;
          s.setItem(storageKey(assistantId), text);
          return true;
        }
      });
    },
    remove(assistantId) {
      safely(undefined, (s) => s.removeItem(storageKey(assistantId)));
    },
    removeExpired,
  };
}

/**
 * Where the stored conversation lives: this frame's localStorage when the browser allows it; memory on a
 * page opened outside a frame; else what storage-bridge.ts finds (the customer's page through widget.js,
 * or memory). The bridge downloads only then — most browsers give the frame its storage, and every byte
 * of the embed's first load is felt; if even that download fails, this visit is kept in memory.
 */
export function conversationStorage(): Promise<Storage> {
  const own = browserStorage();
  if (own) return Promise.resolve(own);
  if (!isFramed()) return Promise.resolve(memoryStorage());
  return import('./storage-bridge').then(
    (bridge) => bridge.openConversationStorage(),
    () => memoryStorage(),
  );
}
