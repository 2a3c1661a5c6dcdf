import { randomBytes, randomUUID } from 'node:crypto';
import { personalData, type EventType, type NewEvent } from '@kesher/contracts';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlSubjectKeys, type SqlSubjectKeys } from '../../privacy/keys/sql-subject-keys.js';
import { kafkaAvailability, kafkaBrokers } from '../../testing/kafka.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createRelay } from '../../workers/relay/relay.js';
import { fromMessage } from '../bus/relayed-event.js';
import { createKafkaBus } from '../bus/kafka.bus.js';
import type { DeliveredMessage, MessageBus } from '../bus/message-bus.port.js';
import { createPgSql } from '../sql/pg.sql.js';
import type { Sql } from '../sql/sql.port.js';
import type { EventStore } from './event-store.port.js';
import { createPersonalDataCodec, ERASED } from './personal-data.codec.js';
import { withPersonalDataOnBus } from './personal-data.bus.js';
import { withPersonalData } from './personal-data.event-store.js';
import { withEventSchemas } from './schema-checked.event-store.js';
import { createSqlEventStore } from './sql-event-store.js';

const kafka = await kafkaAvailability();
const postgres = await postgresAvailability();
const services = !postgres.available ? postgres : kafka;

/** A marker per run and field: found in a row or a message, it is a personal field in clear. */
const run = randomBytes(4).toString('hex');
const secret = (field: string) => `pii${run}${field}`;
const iso = new Date().toISOString();

/**
 * One valid event of each type that declares personal data, every declared field holding a marker. A
 * new declared type without a sample here fails the first test: its fields would go unchecked.
 */
// Keyed by name rather than EventType: a sample may be written before its event type is registered.
const samples: Record<string, Record<string, unknown> | undefined> = {
  AccountRegistered: {
    accountId: 'acc1',
    email: `${secret('email')}@example.com`,
    displayName: secret('displayName'),
    passwordHash: secret('hash'),
    provider: 'password',
    photoUrl: secret('photo'),
  },
  AccountEmailVerified: { accountId: 'acc1', email: `${secret('verified')}@example.com` },
  AccountPasswordReset: { accountId: 'acc1', passwordHash: secret('reset') },
  AccountAddressReleased: {
    accountId: 'acc1',
    email: `${secret('released')}@example.com`,
    reason: 'claimed-by-verified-google',
  },
  KnowledgeFileUploaded: {
    fileId: 'f1',
    assistantId: 'a1',
    ownerId: 'acc1',
    filename: secret('filename'),
    kind: 'pdf',
    bytes: 1,
    contentSha256: 'a'.repeat(64),
    sourceUrl: secret('source'),
  },
  ThreadStarted: {
    threadId: 't1',
    assistantId: 'a1',
    assistantOwnerId: 'acc1',
    ownerId: null,
    visitorSessionHash: 'b'.repeat(64),
    isPublic: true,
    channel: 'telegram',
    shareTokenHash: 'c'.repeat(64),
    contact: { integrationId: 'i1', chatId: secret('chat'), name: secret('contactName') },
  },
  MessagePosted: {
    messageId: 'm1',
    threadId: 't1',
    role: 'user',
    text: secret('text'),
    channel: 'telegram',
    language: 'en',
    runId: null,
  },
  ThreadRenamed: { threadId: 't1', title: secret('title') },
  FeedbackGiven: {
    messageId: 'm1',
    threadId: 't1',
    assistantId: 'a1',
    rating: 'like',
    comment: secret('comment'),
    authorKey: 'visitor:abc',
    source: 'app',
    isPublic: true,
  },
  ChannelConnected: {
    integrationId: 'i2',
    assistantId: 'a1',
    ownerId: 'acc1',
    sealedSecrets: 'x',
    tokenLast4: '1234',
    account: {
      kind: 'whatsapp',
      phoneNumberId: 'p1',
      phoneNumber: secret('phone'),
      businessName: 'Shop',
      businessAccountId: null,
      testNumber: secret('test'),
    },
  },
  ChannelMessageReceived: {
    integrationId: 'i1',
    assistantId: 'a1',
    ownerId: 'acc1',
    kind: 'telegram',
    chatId: secret('chat'),
    senderName: secret('sender'),
    externalMessageId: 'e1',
    text: secret('inbound'),
  },
  ChannelReplyDispatched: {
    messageId: 'm2',
    threadId: 't1',
    integrationId: 'i1',
    kind: 'telegram',
    chatId: secret('chat'),
    parts: 1,
    author: 'assistant',
  },
  ChannelDeliveryStatusReported: {
    integrationId: 'i1',
    kind: 'whatsapp',
    externalMessageId: 'e2',
    recipientId: secret('chat'),
    status: 'read',
    error: null,
    at: iso,
  },
  QueryTracked: {
    queryId: 'q1',
    ownerId: 'acc1',
    assistantId: null,
    query: secret('query'),
    responseTimeMs: null,
    success: true,
    source: 'api',
  },
  PaymentSucceeded: {
    ownerId: 'acc1',
    paymentId: 'pay1',
    provider: 'test',
    subscriptionId: null,
    checkoutId: null,
    description: 'Pro',
    amount: 19900,
    currency: 'ILS',
    invoicePdf: null,
    cardLast4: '4242',
    cardHolder: secret('holder'),
  },
  RunActionsRequired: {
    threadId: 't1',
    runId: 'r1',
    calls: [{ callId: 'c1', actionId: 'x1', title: 'Order', arguments: { email: secret('argument') } }],
  },
  AnswerCurated: {
    assistantId: 'a1',
    ownerId: 'acc1',
    qaId: 'qa1',
    question: secret('question'),
    answer: secret('answer'),
    curatedBy: 'acc1',
  },
  CuratedAnswerEdited: {
    assistantId: 'a1',
    ownerId: 'acc1',
    qaId: 'qa1',
    question: secret('question2'),
    answer: secret('answer2'),
  },
};

const declaredTypes = Object.entries(personalData)
  .filter(([, entry]) => 'fields' in entry)
  .map(([type]) => type as EventType);

const newEvent = (type: string, data: unknown): NewEvent => ({
  type,
  data,
  metadata: {
    eventId: randomUUID(),
    correlationId: 'c',
    causationId: 'c',
    actor: { kind: 'system', id: 'pii-test' },
    timestamp: iso,
    schemaVersion: 1,
  },
});

describe.skipIf(!services.available)('personal data at the event log boundary (Postgres + Kafka)', () => {
  const category = `piitest${run}`;
  const topic = `kesher.${category}`;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;
  let keys: SqlSubjectKeys;
  let raw: EventStore;
  let store: EventStore;
  let bus: MessageBus;

  beforeAll(async () => {
    db = await createTestDatabase();
    sql = createPgSql({ connectionString: db.url });
    keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32) });
    await keys.listen();
    const codec = createPersonalDataCodec(keys);
    raw = await createSqlEventStore({ sql });
    store = withEventSchemas(withPersonalData(raw, codec));
    bus = createKafkaBus({ brokers: kafkaBrokers(), clientId: 'kesher-pii-test', sql, deliveries: {} });
    for (const type of declaredTypes) {
      if (samples[type])
        await store.appendToStream(`${category}-${type}`, [newEvent(type, samples[type])], { expectedRevision: 'any' });
    }
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await keys?.stop();
    await sql?.close();
    await db?.drop();
  });

  it('has a sample for every event type that declares personal data', () => {
    expect(declaredTypes.filter((type) => !samples[type])).toEqual([]);
  });

  it('stores no declared personal field in clear, and reads every one back opened', async () => {
    const { rows } = await sql.query<{ event_type: string; data: string }>(
      `SELECT event_type, data::text AS data FROM events`,
    );
    expect(rows.length).toBe(declaredTypes.length);
    for (const row of rows) expect(row.data, row.event_type).not.toContain(`pii${run}`);
    for (const type of declaredTypes) {
      const [event] = await store.readStream(`${category}-${type}`);
      expect(event!.data, type).toEqual(samples[type]);
    }
  });

  it('relays the sealed form to Kafka, and consumers get it opened', async () => {
    const relay = createRelay({ eventStore: raw, bus, sql, name: `relay-${run}` });
    await relay.start();
    expect(await relay.waitForPosition(await raw.headPosition())).toBe(true);
    await relay.stop();

    // Straight off the topic, from its beginning, as anyone with access to the broker would read it.
    const client = new Kafka({ clientId: 'kesher-pii-reader', brokers: kafkaBrokers(), logLevel: logLevel.NOTHING });
    const consumer = client.consumer({ groupId: `pii-raw-${run}` });
    const values: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value?.toString() ?? '') });
    await expect.poll(() => values.length, { timeout: 30_000 }).toBe(declaredTypes.length);
    await consumer.disconnect();
    for (const value of values) expect(value).not.toContain(`pii${run}`);

    const opened: DeliveredMessage[] = [];
    const codecBus = withPersonalDataOnBus(bus, createPersonalDataCodec(keys));
    const worker = await codecBus.consume({
      groupId: `pii-worker-${run}`,
      topics: [topic],
      handler: async (m) => void opened.push(m),
    });
    await expect.poll(() => opened.length, { timeout: 30_000 }).toBe(declaredTypes.length);
    await worker.stop();
    for (const message of opened) {
      const event = fromMessage(message);
      expect(event.data, event.type).toEqual(samples[event.type]);
    }
  }, 90_000);

  it('reads an erased subject as "[erased]" in every process, and seals a late event about it already shredded', async () => {
    // A second process's key cache: it has the keys loaded before the erasure, and hears of it by NOTIFY.
    const otherKeys = createSqlSubjectKeys({ sql, serverKey: Buffer.alloc(32) });
    await otherKeys.listen();
    const thread = keys.keyIdOf({ kind: 'thread', threadId: 't1' });
    await keys.shred([thread]);
    const [message] = await store.readStream(`${category}-MessagePosted`);
    expect((message!.data as { text: string }).text).toBe(ERASED);
    const [actions] = await store.readStream(`${category}-RunActionsRequired`);
    expect((actions!.data as { calls: { arguments: unknown }[] }).calls[0]!.arguments).toEqual({});
    await expect.poll(() => otherKeys.peek(thread), { timeout: 30_000 }).toBeNull();
    await otherKeys.stop();

    await store.appendToStream(
      `${category}-late`,
      [newEvent('MessagePosted', { ...samples.MessagePosted, messageId: 'm9', text: secret('late') })],
      { expectedRevision: 'any' },
    );
    const { rows } = await sql.query<{ data: string }>(`SELECT data::text AS data FROM events WHERE stream_id = $1`, [
      `${category}-late`,
    ]);
    expect(rows[0]!.data).not.toContain(secret('late'));
    expect(((await store.readStream(`${category}-late`))[0]!.data as { text: string }).text).toBe(ERASED);
  });

  it('erases an account with everything it owns: its threads and channel contacts', async () => {
    await keys.shred([keys.keyIdOf({ kind: 'account', accountId: 'acc1' })], { ownerId: 'acc1' });
    const [received] = await store.readStream(`${category}-ChannelMessageReceived`);
    expect(received!.data).toMatchObject({ chatId: ERASED, senderName: ERASED, text: ERASED, integrationId: 'i1' });
    const [registered] = await store.readStream(`${category}-AccountRegistered`);
    expect(registered!.data).toMatchObject({ accountId: 'acc1', email: ERASED, passwordHash: ERASED });
    const { rows } = await sql.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM privacy_subject_keys WHERE sealed_key IS NOT NULL`,
    );
    expect(rows[0]!.n).toBe('0');
  });

  it('reads events stored before the codec as they were', async () => {
    await raw.appendToStream(
      `${category}-old`,
      [newEvent('MessagePosted', { ...samples.MessagePosted, text: 'written before sealing' })],
      { expectedRevision: 'any' },
    );
    const [old] = await store.readStream(`${category}-old`);
    expect((old!.data as { text: string }).text).toBe('written before sealing');
  });
});
