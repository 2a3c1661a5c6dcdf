import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { personalDataOf, type RecordedEvent } from '@kesher/contracts';
import type { SubjectKeys } from './subject-keys.port.js';
import { createOpenedTexts, type OpenedTexts } from './opened-texts.js';

/**
 * A sealed personal field, in place of its value: `$pii` is the field's format version (a value without
 * it was stored before the codec and reads as it is), `k` the subject's key id, `c` the nonce, cipher
 * text and tag (base64url) — empty when the subject was erased before the event was stored — and `t`
 * what the value was ('s' text, 'o' object, 'a' list), so an erased one reads as a value of its kind.
 */
export interface SealedField {
  $pii: 1;
  k: string;
  c: string;
  t: 's' | 'o' | 'a';
}

/** What an erased text reads as, everywhere (read models show it as is). */
export const ERASED = '[erased]';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function isSealedField(value: unknown): value is SealedField {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return v.$pii === 1 && typeof v.k === 'string' && typeof v.c === 'string';
}

const kindOf = (value: unknown): SealedField['t'] =>
  Array.isArray(value) ? 'a' : typeof value === 'object' ? 'o' : 's';
const erasedValue = (t: SealedField['t']) => (t === 'a' ? [] : t === 'o' ? {} : ERASED);

function seal(value: unknown, keyId: string, key: Buffer | null): SealedField {
  const t = kindOf(value);
  if (key === null) return { $pii: 1, k: keyId, c: '', t };
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  // The key id is bound in: a sealed field copied under another subject's name does not open.
  cipher.setAAD(Buffer.from(keyId, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return { $pii: 1, k: keyId, c: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url'), t };
}

export class SealedFieldError extends Error {
  constructor(keyId: string) {
    super(
      `a personal field sealed under ${keyId} does not open with its key (altered, or sealed under another server key)`,
    );
    this.name = 'SealedFieldError';
  }
}

function open(field: SealedField, key: Buffer | null): unknown {
  if (key === null || field.c === '') return erasedValue(field.t);
  const raw = Buffer.from(field.c, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(field.k, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return JSON.parse(
      Buffer.concat([decipher.update(raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      ),
    );
  } catch {
    throw new SealedFieldError(field.k);
  }
}

type Path = readonly { name: string; each: boolean }[];
const pathCache = new Map<string, Path>();
function parsePath(path: string): Path {
  let parsed = pathCache.get(path);
  if (!parsed) {
    parsed = path
      .split('.')
      .map((segment) =>
        segment.endsWith('[]') ? { name: segment.slice(0, -2), each: true } : { name: segment, each: false },
      );
    pathCache.set(path, parsed);
  }
  return parsed;
}

/**
 * Calls `visit` on each value at `path` (null and absent ones skipped) and returns a copy of `data` with
 * what it returned in their place; `data` itself is never changed (callers keep their events). With
 * `visit` returning its argument, nothing is copied.
 */
function mapAt(data: unknown, path: Path, index: number, visit: (value: unknown) => unknown): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data;
  const { name, each } = path[index]!;
  const current = (data as Record<string, unknown>)[name];
  if (current === undefined || current === null) return data;
  const last = index === path.length - 1;
  const step = (value: unknown) =>
    last ? (value === null || value === undefined ? value : visit(value)) : mapAt(value, path, index + 1, visit);
  let next: unknown;
  if (each) {
    if (!Array.isArray(current)) return data;
    const mapped = current.map(step);
    next = mapped.some((v, i) => v !== current[i]) ? mapped : current;
  } else {
    next = step(current);
  }
  return next === current ? data : { ...(data as Record<string, unknown>), [name]: next };
}

function forEachAt(data: unknown, path: Path, visit: (value: unknown) => void) {
  mapAt(data, path, 0, (value) => {
    visit(value);
    return value;
  });
}

export interface PersonalDataCodec {
  /** Seals the declared personal fields of events about to be stored (making keys for new subjects). */
  sealEvents<E extends { type: string; data: unknown }>(events: readonly E[]): Promise<E[]>;
  /** Opens sealed fields of stored events: erased subjects' fields read as ERASED (or an empty object or list). */
  openEvents(events: readonly RecordedEvent[]): Promise<RecordedEvent[]>;
  /** The same for one event's data (a bus message's). */
  openData(type: string, data: unknown): Promise<unknown>;
  /** Whether an event type has personal fields at all (a bus consumer skips the rest untouched). */
  hasPersonalData(type: string): boolean;
}

/**
 * The one codec at the event log's boundary (docs/privacy.md): what the contracts declare personal
 * (personal-data.ts) is sealed under its subject's key on the way in, and opened on the way out.
 * Keys already cached cost nothing but the AES work; missing ones are fetched in one round trip per
 * append or per batch read.
 */
export function createPersonalDataCodec(
  keys: SubjectKeys,
  options: { openedTexts?: OpenedTexts } = {},
): PersonalDataCodec {
  // Texts are kept opened while their key is live (opened-texts.ts); objects and lists are opened each
  // time, since a caller may change what it is handed.
  const openedTexts = options.openedTexts ?? createOpenedTexts();
  keys.onErased?.((keyIds) => openedTexts.forget(keyIds));
  async function loadMissing(keyIds: Iterable<string>) {
    const missing = [...new Set(keyIds)].filter((id) => keys.peek(id) === undefined);
    if (missing.length > 0) await keys.load(missing);
  }

  const keyOf = (keyId: string) => keys.peek(keyId) ?? null;

  function openField(field: SealedField): unknown {
    const key = keyOf(field.k);
    // An erased subject (or an unknown key) is never answered from the opened texts.
    if (key === null || field.c === '' || field.t !== 's') return open(field, key);
    const kept = openedTexts.get(field.k, field.c);
    if (kept !== undefined) return kept;
    const text = open(field, key);
    if (typeof text === 'string') openedTexts.set(field.k, field.c, text);
    return text;
  }

  function openOne(type: string, data: unknown): unknown {
    const declaration = personalDataOf(type);
    if (!declaration) return data;
    let out = data;
    for (const field of declaration.fields)
      out = mapAt(out, parsePath(field), 0, (value) => (isSealedField(value) ? openField(value) : value));
    return out;
  }

  function sealedKeyIdsOf(type: string, data: unknown, into: Set<string>) {
    const declaration = personalDataOf(type);
    if (!declaration) return;
    for (const field of declaration.fields)
      forEachAt(data, parsePath(field), (value) => isSealedField(value) && into.add(value.k));
  }

  return {
    hasPersonalData: (type) => personalDataOf(type) !== null,

    async sealEvents(events) {
      const subjects = events.map((event) => {
        const declaration = personalDataOf(event.type);
        const subject = declaration?.subject(event.data);
        if (!declaration || !subject) return undefined;
        return {
          declaration,
          keyId: keys.keyIdOf(subject),
          ownerId: subject.kind === 'account' ? subject.accountId : (subject.ownerId ?? null),
        };
      });
      const unknown = new Map<string, string | null>();
      // A subject's owner from whichever event of the batch names it: a channel's new conversation appends
      // ThreadStarted (naming the owner) with its first MessagePosted (naming none), and a key made without
      // its owner would not be shredded with the owner's account.
      for (const s of subjects)
        if (s && keys.peek(s.keyId) === undefined && !unknown.get(s.keyId)) unknown.set(s.keyId, s.ownerId);
      if (unknown.size > 0) await keys.ensure([...unknown].map(([keyId, ownerId]) => ({ keyId, ownerId })));
      return events.map((event, i) => {
        const s = subjects[i];
        if (!s) return event;
        const key = keyOf(s.keyId);
        let data = event.data;
        for (const field of s.declaration.fields)
          data = mapAt(data, parsePath(field), 0, (value) =>
            isSealedField(value) ? value : seal(value, s.keyId, key),
          );
        return data === event.data ? event : { ...event, data };
      });
    },

    async openEvents(events) {
      const keyIds = new Set<string>();
      for (const event of events) sealedKeyIdsOf(event.type, event.data, keyIds);
      if (keyIds.size === 0) return events as RecordedEvent[];
      await loadMissing(keyIds);
      return events.map((event) => {
        const data = openOne(event.type, event.data);
        return data === event.data ? event : { ...event, data };
      });
    },

    async openData(type, data) {
      const keyIds = new Set<string>();
      sealedKeyIdsOf(type, data, keyIds);
      if (keyIds.size === 0) return data;
      await loadMissing(keyIds);
      return openOne(type, data);
    },
  };
}
