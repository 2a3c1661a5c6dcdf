import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerAssistant } from '../../testing/owner-assistant.js';
import type { OutgoingMail } from '../../mail/mail.port.js';
import { composePrivacyWorkers } from '../../main/compose-privacy-features.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import type { DataSubject, ErasureCause, SubjectErasure } from '../subject-erasure.port.js';

const gate = await postgresAvailability();
const DAY = 24 * 3600 * 1000;

/**
 * The retention run against real read models on Postgres, with the clock of the whole backend under the
 * test's control. It sees which subjects the run hands to the erasure (the erasure itself has its own tests).
 */
describe.skipIf(!gate.available)(`retention${gate.available ? '' : ` (not run: ${gate.reason})`}`, () => {
  let h: ApiHarness;
  let now = new Date('2026-01-05T10:00:00.000Z');
  const clock = () => now;
  const erased: { subject: DataSubject; why: ErasureCause }[] = [];
  const erasure: SubjectErasure = { erase: async (subject, why) => void erased.push({ subject, why }) };
  const mails: OutgoingMail[] = [];
  let privacy: ReturnType<typeof composePrivacyWorkers>;

  beforeAll(async () => {
    h = await createApiHarness({ clock });
    privacy = composePrivacyWorkers({
      sql: h.platform.sql,
      config: h.platform.config,
      erasure,
      sendMail: async (mail) => void mails.push(mail),
      publicUrl: 'http://kesher.test',
      clock,
      scheduler: false,
    });
  });
  afterAll(async () => h?.close());

  async function conversation(auth: { authorization: string }, assistantId: number, text: string) {
    const thread = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/threads/',
        headers: auth,
        payload: { assistant_id: assistantId },
      })
    ).json().thread_id as string;
    expect(
      (
        await h.app.inject({
          method: 'POST',
          url: `/api/v1/threads/${thread}/messages`,
          headers: auth,
          payload: { content: text },
        })
      ).statusCode,
    ).toBe(201);
    return thread;
  }
  const threadsSeen = async (ids: string[]) =>
    (
      await h.platform.sql.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM thread_messages WHERE thread_id = ANY($1)`,
        [ids],
      )
    ).rows[0]!.n;
  const erasedThreads = () =>
    erased.filter((e) => e.subject.kind === 'thread').map((e) => (e.subject as { threadId: string }).threadId);

  it('erases a conversation 91 days after its last message and keeps one of 89; the owner reads it in the security log', async () => {
    const { auth, assistant } = await ownerAssistant(h, {
      name: 'Bakery',
      description: 'The bakery',
      instructions: 'Answer briefly',
    });
    const old = await conversation(auth, assistant.assistant_id, 'When do you bake sourdough?');
    now = new Date(now.getTime() + 2 * DAY);
    const recent = await conversation(auth, assistant.assistant_id, 'Do you bake challah on Friday?');
    await expect.poll(() => threadsSeen([old, recent]), { timeout: 15_000, interval: 50 }).toBe('2');

    // 91 days after the first conversation's last message, 89 after the second's.
    now = new Date(now.getTime() + 89 * DAY);
    const report = await privacy.retention.tick();
    expect(erasedThreads()).toContain(old);
    expect(erasedThreads()).not.toContain(recent);
    expect(report.conversations).toBeGreaterThanOrEqual(1);
    expect(erased.find((e) => e.subject.kind === 'thread' && e.subject.threadId === old)!.why).toEqual({
      reason: 'retention',
      actor: 'system:retention',
    });

    // Run again at once: nothing new for it (already erased), the recent one still kept.
    const before = erased.length;
    await privacy.retention.tick();
    expect(erased.length).toBe(before);

    // Two more days: the second conversation's 90 days have passed too.
    now = new Date(now.getTime() + 2 * DAY);
    await privacy.retention.tick();
    expect(erasedThreads()).toContain(recent);

    const log = (await h.app.inject({ url: '/api/v1/auth/me/security-log', headers: auth })).json().entries;
    expect(
      log.filter((e: { kind: string }) => e.kind === 'retention_run').map((e: { detail: unknown }) => e.detail),
    ).toEqual([
      { conversations: 1, after_days: 90 },
      { conversations: 1, after_days: 90 },
    ]);
  });

  it('warns an account inactive for 24 months by mail (a sign-in or a signed-in request counts as activity), erases it 30 days later, and forgets a warning the owner answered by using Kesher', async () => {
    now = new Date('2027-01-01T09:00:00.000Z');
    const idle = await h.owner();
    const busy = await h.owner();
    const busyAssistant = (
      await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization: busy.authorization },
        payload: { name: 'Garage', description: 'The garage', instructions: 'Answer briefly' },
      })
    ).json();
    await expect
      .poll(
        async () =>
          (await h.platform.sql.query(`SELECT 1 FROM assistants WHERE owner_id = $1`, [busy.accountId])).rows.length,
        { timeout: 15_000, interval: 50 },
      )
      .toBe(1);

    // Two owners who only come back to look: one signs in again, one uses a session it kept (GET /auth/me).
    const signer = await h.owner();
    const looker = await h.owner();
    now = new Date('2028-06-01T09:00:00.000Z');
    await expect
      .poll(
        async () =>
          (
            await h.app.inject({
              method: 'POST',
              url: '/api/v1/auth/login',
              payload: { email: signer.email, password: 'Str0ng-Passw0rd!' },
            })
          ).statusCode,
        { timeout: 15_000, interval: 50 },
      )
      .toBe(200);
    expect(
      (await h.app.inject({ url: '/api/v1/auth/me', headers: { authorization: looker.authorization } })).statusCode,
    ).toBe(200);

    now = new Date('2029-01-02T09:00:00.000Z'); // 24 months and a day
    const warned = await privacy.retention.tick();
    expect(warned.accountsWarned).toBeGreaterThanOrEqual(2);
    // A sign-in, and a signed-in request, 7 months ago: both still active.
    const warnedTo = mails.map((mail) => mail.to);
    expect(warnedTo).not.toContain(signer.email.toLowerCase());
    expect(warnedTo).not.toContain(looker.email.toLowerCase());
    const idleMail = mails.find((mail) => mail.to === idle.email.toLowerCase());
    expect(idleMail?.subject).toBe('Your Kesher account will be deleted / חשבון קשר שלך יימחק');
    expect(idleMail?.text).toContain('2029-02-01');
    expect(erased.some((e) => e.subject.kind === 'account')).toBe(false);

    // The busy owner comes back within the notice: a conversation with their assistant.
    now = new Date('2029-01-20T09:00:00.000Z');
    const thread = await conversation(
      { authorization: busy.authorization },
      busyAssistant.assistant_id,
      'Are you open on Sunday?',
    );
    await expect.poll(() => threadsSeen([thread]), { timeout: 15_000, interval: 50 }).toBe('1');

    now = new Date('2029-02-02T09:00:00.000Z'); // the notice's 30 days have passed
    const report = await privacy.retention.tick();
    const accounts = erased.filter((e) => e.subject.kind === 'account');
    expect(accounts).toContainEqual({
      subject: { kind: 'account', accountId: idle.accountId },
      why: { reason: 'inactive_account', actor: 'system:retention' },
    });
    expect(accounts.map((e) => (e.subject as { accountId: string }).accountId)).not.toContain(busy.accountId);
    expect(report.accountsErased).toBeGreaterThanOrEqual(1);
  });

  it('keeps analytics counts past 24 months but shreds who asked what: query texts erased, participants one-way hashed', async () => {
    const owner = await h.owner();
    const { sql } = h.platform;
    const old = new Date(now.getTime() - 750 * DAY);
    const recent = new Date(now.getTime() - 600 * DAY);
    await sql.query(
      `INSERT INTO analytics_queries (id, owner_id, assistant_id, thread_id, query, channel, source, status, created_at) VALUES
        ('q-old', $1, 'a1', 't1', 'Is my ex-husband Avi a customer?', 'public_link', 'chat', 'answered', $2),
        ('q-recent', $1, 'a1', 't2', 'Do you bake spelt bread?', 'public_link', 'chat', 'answered', $3)`,
      [owner.accountId, old.toISOString(), recent.toISOString()],
    );
    await sql.query(
      `INSERT INTO analytics_participants (owner_id, participant, first_day, last_day) VALUES ($1, 'visitor:abc', $2, $2), ($1, 'visitor:def', $3, $3)`,
      [owner.accountId, old.toISOString().slice(0, 10), recent.toISOString().slice(0, 10)],
    );
    await privacy.retention.tick();
    const queries = (
      await sql.query<{ id: string; query: string }>(
        `SELECT id, query FROM analytics_queries WHERE owner_id = $1 ORDER BY id`,
        [owner.accountId],
      )
    ).rows;
    expect(queries).toEqual([
      { id: 'q-old', query: '[erased]' },
      { id: 'q-recent', query: 'Do you bake spelt bread?' },
    ]);
    const participants = (
      await sql.query<{ participant: string }>(
        `SELECT participant FROM analytics_participants WHERE owner_id = $1 ORDER BY last_day`,
        [owner.accountId],
      )
    ).rows.map((r) => r.participant);
    expect(participants).toHaveLength(2);
    expect(participants[0]).toMatch(/^erased:[0-9a-f]{32}$/);
    expect(participants[1]).toBe('visitor:def');
  });

  it('drops security-log entries older than 12 months, and payments older than 7 years', async () => {
    const owner = await h.owner();
    const { sql } = h.platform;
    await sql.query(
      `INSERT INTO privacy_security_log (id, owner_id, kind, actor, detail, at) VALUES ('old-entry', $1, 'data_exported', 'account:x', '{}', $2), ('new-entry', $1, 'data_exported', 'account:x', '{}', $3)`,
      [
        owner.accountId,
        new Date(now.getTime() - 380 * DAY).toISOString(),
        new Date(now.getTime() - 300 * DAY).toISOString(),
      ],
    );
    await sql.query(
      `INSERT INTO billing_payments (payment_id, owner_id, provider, created_at, description, amount, currency, status) VALUES
        ('pay-old', $1, 'test', $2, 'Pro', 19900, 'ils', 'succeeded'), ('pay-kept', $1, 'test', $3, 'Pro', 19900, 'ils', 'succeeded')`,
      [
        owner.accountId,
        new Date(now.getTime() - (7 * 365 + 3) * DAY).toISOString(),
        new Date(now.getTime() - (7 * 365 - 3) * DAY).toISOString(),
      ],
    );
    await privacy.retention.tick();
    const ids = (
      await sql.query<{ id: string }>(
        `SELECT id FROM privacy_security_log WHERE owner_id = $1 AND id IN ('old-entry', 'new-entry')`,
        [owner.accountId],
      )
    ).rows.map((r) => r.id);
    expect(ids).toEqual(['new-entry']);
    const payments = (
      await sql.query<{ payment_id: string }>(
        `SELECT payment_id FROM billing_payments WHERE owner_id = $1 ORDER BY payment_id`,
        [owner.accountId],
      )
    ).rows.map((r) => r.payment_id);
    expect(payments).toEqual(['pay-kept']);
  });
});
