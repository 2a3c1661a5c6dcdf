import { randomUUID } from 'node:crypto';
import { streamIds, type RecordedEvent, type SubjectRef } from '@kesher/contracts';
import { retainedKeywordsOf } from '@kesher/projections/analytics/keywords/retained-keywords';
import { WrongExpectedVersionError, type EventStore } from '../../platform/event-store/event-store.port.js';
import { isSealedField } from '../../platform/event-store/personal-data.codec.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import type { SqlSubjectKeys } from '../keys/sql-subject-keys.js';
import type { DataSubject, ErasureCause, SubjectErasure } from '../subject-erasure.port.js';

export interface SubjectErasureDeps {
  eventStore: EventStore;
  /**
   * The log as stored (personal fields sealed): tells a message stored in clear before the codec from a
   * sealed one, for the keyword counts an erased conversation keeps. Without it every message counts as sealed.
   */
  sealedEventStore?: EventStore;
  keys: SqlSubjectKeys;
  /** The read models' database: a channel contact's conversations and rows are found there. */
  sql: Sql;
  clock?: () => Date;
}

/**
 * Crypto-shredding (docs/privacy.md): a subject's key — and for an account every key it owns, for a
 * channel contact its conversations' keys — is deleted, then `SubjectErased` records the fact. From then
 * on every copy of the subject's personal fields (the log, Kafka, backups) reads "[erased]"; the read
 * models blank or drop their rows on the event, as a replay from zero would build them.
 */
export function createSubjectErasure(
  deps: SubjectErasureDeps,
): SubjectErasure & { keyIdOf(subject: DataSubject): string } {
  const keyIdOf = (subject: DataSubject) => deps.keys.keyIdOf(refOf(subject));

  async function record(
    subject: DataSubject,
    keyId: string,
    shredded: string[],
    why: ErasureCause,
    extra: { ownerId: string | null; threadId: string | null },
  ) {
    const erasureId = randomUUID();
    await deps.eventStore.appendToStream(
      streamIds.erasure(erasureId),
      [
        {
          type: 'SubjectErased',
          data: {
            erasureId,
            subject: subject.kind,
            keyId,
            ownerId: extra.ownerId,
            threadId: extra.threadId,
            reason: why.reason,
            actor: why.actor,
            dependentKeys: shredded.filter((id) => id !== keyId).length,
          },
          metadata: {
            eventId: randomUUID(),
            correlationId: erasureId,
            causationId: erasureId,
            actor: actorOf(why.actor),
            timestamp: (deps.clock?.() ?? new Date()).toISOString(),
            schemaVersion: 1,
          },
        },
      ],
      { expectedRevision: 'no_stream' },
    );
  }

  const metadataFor = (correlationId: string) => ({
    eventId: randomUUID(),
    correlationId,
    causationId: correlationId,
    actor: { kind: 'system' as const, id: 'erasure' },
    timestamp: (deps.clock?.() ?? new Date()).toISOString(),
    schemaVersion: 1,
  });

  /**
   * Before a conversation's key is shredded: its keyword counts, recorded on its stream right after the
   * messages they come from (KeywordsRetained; the keywords read model explains how a replay uses them).
   * Appended at the stream's revision as read, so a message posted meanwhile is read again; recorded once.
   */
  async function retainKeywords(threadId: string) {
    const stream = streamIds.thread(threadId);
    for (let attempt = 0; attempt < 5; attempt++) {
      const events = await deps.eventStore.readStream(stream);
      const last = events.at(-1);
      if (!last || events.some((event) => event.type === 'KeywordsRetained')) return;
      const plain = new Set(
        (deps.sealedEventStore ? await deps.sealedEventStore.readStream(stream) : [])
          .filter((event) => event.type === 'MessagePosted' && !sealedText(event))
          .map((event) => event.metadata.eventId),
      );
      const data = retainedKeywordsOf(threadId, events, (event) => plain.has(event.metadata.eventId));
      if (data.messages.length === 0) return;
      try {
        await deps.eventStore.appendToStream(
          stream,
          [{ type: 'KeywordsRetained', data, metadata: metadataFor(threadId) }],
          {
            expectedRevision: last.streamPosition,
          },
        );
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
      }
    }
  }

  /** The account's conversations whose keys are still there (shredded with the account's key). */
  async function threadsOwnedBy(accountId: string) {
    const { rows } = await deps.sql.query<{ thread_id: string }>(
      `SELECT substr(key_id, 8) AS thread_id FROM privacy_subject_keys
       WHERE owner_id = $1 AND sealed_key IS NOT NULL AND key_id LIKE 'thread:%'`,
      [accountId],
    );
    return rows.map((row) => row.thread_id);
  }

  return {
    keyIdOf,
    async erase(subject, why) {
      switch (subject.kind) {
        case 'account': {
          const keyId = keyIdOf(subject);
          for (const threadId of await threadsOwnedBy(subject.accountId)) await retainKeywords(threadId);
          const shredded = await deps.keys.shred([keyId], { ownerId: subject.accountId });
          // The account's mailed links (verification, password reset) name its address in clear: gone with it.
          await deps.sql.query(`DELETE FROM link_tokens WHERE account_id = $1`, [subject.accountId]);
          if (shredded.length > 0)
            await record(subject, keyId, shredded, why, { ownerId: subject.accountId, threadId: null });
          return;
        }
        case 'thread': {
          const keyId = keyIdOf(subject);
          if (deps.keys.peek(keyId) !== null) await retainKeywords(subject.threadId);
          const shredded = await deps.keys.shred([keyId]);
          if (shredded.length > 0)
            await record(subject, keyId, shredded, why, {
              ownerId: await ownerOfThread(subject.threadId),
              threadId: subject.threadId,
            });
          return;
        }
        case 'channel_contact': {
          const keyId = keyIdOf(subject);
          const { rows } = await deps.sql.query<{ thread_id: string }>(
            `SELECT DISTINCT thread_id FROM channel_replies WHERE integration_id = $1 AND chat_id = $2`,
            [subject.integrationId, subject.chatId],
          );
          const threadIds = [...new Set([...(subject.threadIds ?? []), ...rows.map((r) => r.thread_id)])];
          const shredded = await deps.keys.shred([keyId]);
          // Each conversation is erased as a subject of its own, so the threads read model sees each one.
          for (const threadId of threadIds) await this.erase({ kind: 'thread', threadId }, why);
          // The channels read model keys its rows by the chat id, which no event may name: they are dropped
          // here, as a replay drops rows whose chat id reads "[erased]" (channels.projection.ts).
          await dropContactRows(subject.integrationId, subject.chatId);
          if (shredded.length > 0)
            await record(subject, keyId, shredded, why, {
              ownerId: await ownerOfIntegration(subject.integrationId),
              threadId: null,
            });
          return;
        }
      }
    },
  };

  async function ownerOfThread(threadId: string) {
    const { rows } = await deps.sql
      .query<{ owner: string }>(`SELECT assistant_owner_id AS owner FROM threads WHERE id = $1`, [threadId])
      .catch(() => ({ rows: [] }));
    return rows[0]?.owner ?? null;
  }

  async function ownerOfIntegration(integrationId: string) {
    const { rows } = await deps.sql
      .query<{ owner: string }>(`SELECT owner_id AS owner FROM channel_integrations WHERE integration_id = $1`, [
        integrationId,
      ])
      .catch(() => ({ rows: [] }));
    return rows[0]?.owner ?? null;
  }

  async function dropContactRows(integrationId: string, chatId: string) {
    await deps.sql.query(`DELETE FROM channel_chats WHERE integration_id = $1 AND chat_id = $2`, [
      integrationId,
      chatId,
    ]);
    await deps.sql.query(`DELETE FROM channel_replies WHERE integration_id = $1 AND chat_id = $2`, [
      integrationId,
      chatId,
    ]);
    await deps.sql.query(`DELETE FROM channel_statuses WHERE integration_id = $1 AND recipient_id = $2`, [
      integrationId,
      chatId,
    ]);
  }
}

/** Whether a stored MessagePosted's text is sealed (the codec's form) rather than stored in clear before it. */
function sealedText(event: RecordedEvent): boolean {
  const data = event.data;
  return typeof data === 'object' && data !== null && 'text' in data && isSealedField(data.text);
}

function refOf(subject: DataSubject): SubjectRef {
  switch (subject.kind) {
    case 'account':
      return { kind: 'account', accountId: subject.accountId };
    case 'thread':
      return { kind: 'thread', threadId: subject.threadId };
    case 'channel_contact':
      return { kind: 'channel_contact', integrationId: subject.integrationId, chatId: subject.chatId };
  }
}

function actorOf(actor: string): { kind: 'account' | 'visitor' | 'system'; id: string } {
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':') || actor;
  return kind === 'account' || kind === 'visitor' || kind === 'system' ? { kind, id } : { kind: 'system', id: actor };
}
