import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { SubjectRef } from '@kesher/contracts';
import type { SubjectKeys } from '../../platform/event-store/subject-keys.port.js';
import { createSecretBox } from '../../platform/secrets/secret-box.js';
import type { Sql } from '../../platform/sql/sql.port.js';

/** Where erasures are announced, so every process drops the keys from its cache (payload: JSON key ids, or `*`). */
export const KEYS_ERASED_CHANNEL = 'privacy_keys_erased';
/** NOTIFY payloads are limited to 8000 bytes: a longer list is announced as `*` (every process clears its cache). */
const MAX_PAYLOAD = 7000;

export interface SqlSubjectKeysOptions {
  sql: Sql;
  /** The server's secrets key (loadSecretsKey): the subject keys are sealed under a key derived from it. */
  serverKey: Uint8Array;
  /**
   * How long a cached key is trusted without hearing of its erasure. Erasures are announced by NOTIFY and
   * take effect at once; this bounds what a process that missed the notice (a dropped listener) may still
   * decrypt. Erased keys stay cached as erased for good.
   */
  cacheTtlMs?: number;
  /** Keys cached at most (default 200 000, about 20 MB); the least recently loaded go first. */
  maxCachedKeys?: number;
  now?: () => number;
}

export type SqlSubjectKeys = SubjectKeys & {
  /**
   * Shreds the named keys and every key `ownerId` owns (its threads, its channel contacts): tombstones are
   * written for named keys that never existed, so no later event can get one. Returns the key ids erased
   * now (already erased ones are not repeated).
   */
  shred(keyIds: readonly string[], options?: { ownerId?: string }): Promise<string[]>;
  /** Hears other processes' erasures. */
  listen(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * The key store: one AES-256 key per data subject in `privacy_subject_keys`, each sealed (AES-256-GCM,
 * bound to its key id) with a key derived from the server's secrets key, and cached per process.
 */
export function createSqlSubjectKeys(options: SqlSubjectKeysOptions): SqlSubjectKeys {
  const { sql } = options;
  const ttl = options.cacheTtlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const master = Buffer.from(options.serverKey);
  const box = createSecretBox({
    key: new Uint8Array(hkdfSync('sha256', master, 'kesher', 'kesher subject key seal v1', 32)),
  });
  const contactNameKey = Buffer.from(hkdfSync('sha256', master, 'kesher', 'kesher contact key name v1', 32));
  const cache = new Map<string, { key: Buffer | null; at: number }>();
  let unlisten: (() => Promise<void>) | undefined;

  /** Keys kept per process at most: a busy deployment meets millions of conversations over its life. */
  const maxCached = options.maxCachedKeys ?? 200_000;
  const erasedListeners = new Set<(keyIds: readonly string[] | 'all') => void>();
  function cacheSet(keyId: string, key: Buffer | null) {
    const was = cache.get(keyId);
    cache.delete(keyId);
    cache.set(keyId, { key, at: now() });
    // What others keep opened under a key that is gone goes with it (the codec's opened texts).
    if (key === null && was?.key !== null) for (const listener of erasedListeners) listener([keyId]);
    // The oldest entry goes first (a Map keeps insertion order); a forgotten key is read again when needed.
    if (cache.size > maxCached) cache.delete(cache.keys().next().value!);
  }

  function remember(keyId: string, sealed: string | null) {
    cacheSet(keyId, sealed === null ? null : Buffer.from(box.open(sealed, keyId), 'base64'));
  }

  function forget(payload: string) {
    if (payload === '*') {
      cache.clear();
      for (const listener of erasedListeners) listener('all');
      return;
    }
    for (const keyId of JSON.parse(payload) as string[]) cacheSet(keyId, null);
  }

  async function load(keyIds: readonly string[]) {
    if (keyIds.length === 0) return;
    const { rows } = await sql.query<{ key_id: string; sealed_key: string | null }>(
      `SELECT key_id, sealed_key FROM privacy_subject_keys WHERE key_id = ANY($1::text[])`,
      [keyIds],
    );
    const found = new Set<string>();
    for (const row of rows) {
      found.add(row.key_id);
      remember(row.key_id, row.sealed_key);
    }
    // A sealed field whose key is not there at all is unreadable: the same as erased.
    for (const keyId of keyIds) if (!found.has(keyId)) cacheSet(keyId, null);
  }

  return {
    keyIdOf(subject: SubjectRef) {
      switch (subject.kind) {
        case 'account':
          return `account:${subject.accountId}`;
        case 'thread':
          return `thread:${subject.threadId}`;
        case 'channel_contact':
          // Keyed: a hash of a Telegram chat id or a phone number alone could be reversed by trying them all.
          return `contact:${createHmac('sha256', contactNameKey).update(`${subject.integrationId}\n${subject.chatId}`).digest('base64url').slice(0, 32)}`;
      }
    },

    peek(keyId) {
      const entry = cache.get(keyId);
      if (!entry) return undefined;
      if (entry.key !== null && now() - entry.at > ttl) return undefined;
      return entry.key;
    },

    load,

    async ensure(keys) {
      if (keys.length === 0) return;
      const ids = keys.map((k) => k.keyId);
      const sealed = keys.map((k) => box.seal(randomBytes(32).toString('base64'), k.keyId));
      // One round trip: the rows this statement made, and those that were there (an erased one stays erased).
      const { rows } = await sql.query<{ key_id: string; sealed_key: string | null }>(
        `WITH made AS (
           INSERT INTO privacy_subject_keys (key_id, owner_id, sealed_key)
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
           -- A key made by an event that did not name its owner learns it from the first one that does.
           ON CONFLICT (key_id) DO UPDATE SET owner_id = EXCLUDED.owner_id
             WHERE privacy_subject_keys.owner_id IS NULL AND EXCLUDED.owner_id IS NOT NULL
           RETURNING key_id, sealed_key
         )
         SELECT key_id, sealed_key FROM made
         UNION ALL
         SELECT key_id, sealed_key FROM privacy_subject_keys WHERE key_id = ANY($1::text[]) AND key_id NOT IN (SELECT key_id FROM made)`,
        [ids, keys.map((k) => k.ownerId), sealed],
      );
      for (const row of rows) remember(row.key_id, row.sealed_key);
      // Another process made one of these keys at the same moment: its row committed after this
      // statement's snapshot, so it came back in neither part. A new statement sees it.
      const returned = new Set(rows.map((row) => row.key_id));
      const raced = ids.filter((id) => !returned.has(id));
      if (raced.length > 0) await load(raced);
    },

    async shred(keyIds, shredOptions = {}) {
      const { rows } = await sql.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO privacy_subject_keys (key_id, owner_id, sealed_key, erased_at)
           SELECT key_id, NULL, NULL, now() FROM unnest($1::text[]) AS key_id
           ON CONFLICT (key_id) DO NOTHING`,
          [keyIds],
        );
        return tx.query<{ key_id: string }>(
          `UPDATE privacy_subject_keys SET sealed_key = NULL, erased_at = COALESCE(erased_at, now())
           WHERE (key_id = ANY($1::text[]) OR owner_id = $2) AND sealed_key IS NOT NULL
           RETURNING key_id`,
          [keyIds, shredOptions.ownerId ?? null],
        );
      });
      const erased = [...new Set([...keyIds, ...rows.map((r) => r.key_id)])];
      for (const keyId of erased) cacheSet(keyId, null);
      const payload = JSON.stringify(erased);
      await sql.query(`SELECT pg_notify($1, $2)`, [KEYS_ERASED_CHANNEL, payload.length > MAX_PAYLOAD ? '*' : payload]);
      return rows.map((r) => r.key_id);
    },

    onErased(listener) {
      erasedListeners.add(listener);
      return () => void erasedListeners.delete(listener);
    },

    async listen() {
      if (!unlisten) unlisten = await sql.listen(KEYS_ERASED_CHANNEL, forget);
    },

    async stop() {
      await unlisten?.();
      unlisten = undefined;
    },
  };
}
