import type { SendMail } from '../../mail/index.js';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';
import type { SecurityLog } from '../security-log/security-log.js';
import type { DataSubject, SubjectErasure } from '../subject-erasure.port.js';
import { daysBefore, monthsBefore, type RetentionPolicy } from './retention-policy.js';

export interface RetentionRunDeps {
  /** The read models (threads, channels, analytics, billing, accounts) and the run's own tables. */
  sql: SqlExecutor;
  erasure: SubjectErasure;
  securityLog: SecurityLog;
  policy: RetentionPolicy;
  sendMail: SendMail;
  publicUrl: string;
  clock?: () => Date;
  /** How often the scheduler runs it (default 6 h); 0: only when `tick` is called (tests). */
  intervalMs?: number;
  /** Most subjects erased per kind in one pass; a pass repeats until nothing is due. */
  batchSize?: number;
  /** Erasures at once (default 4). */
  concurrency?: number;
  onError?: (error: unknown) => void;
}

/** What one run did. */
export interface RetentionReport {
  conversations: number;
  channelContacts: number;
  analyticsShredded: number;
  securityLogPurged: number;
  paymentsPurged: number;
  accountsWarned: number;
  accountsErased: number;
}

const subjectKey = (subject: DataSubject) =>
  subject.kind === 'account'
    ? `account:${subject.accountId}`
    : subject.kind === 'thread'
      ? `thread:${subject.threadId}`
      : `channel_contact:${subject.integrationId}:${subject.chatId}`;

const ACTOR = 'system:retention';

/**
 * The retention run (spec part 2 "Privacy"), each period from the policy:
 *  - conversations — an owner's, a visitor's, a channel customer's — are erased (crypto-shredded through
 *    SubjectErasure) once their last message is older than the conversation period; a channel customer's
 *    contact (chat id, name) too, once their last message through the channel is;
 *  - analytics detail older than the analytics period keeps its counts, and loses who asked what: query
 *    texts become "[erased]", participants and feedback authors become one-way hashes (unique counts hold);
 *  - the owners' security log loses entries older than its period; payment rows older than theirs go;
 *  - an account inactive longer than the inactivity period (no sign-in, no signed-in request, no
 *    conversation, no change to an assistant or a file, no paid subscription) is warned by mail, and erased when the notice period has passed with
 *    no activity since.
 *
 * Several workers processes may run it at once: erasure is idempotent and the bookkeeping rows are upserts,
 * so two runs at once do the same work twice at worst, never a wrong thing.
 */
export function createRetentionRun(deps: RetentionRunDeps) {
  const clock = deps.clock ?? (() => new Date());
  const batch = deps.batchSize ?? 200;
  const q = async <Row>(text: string, params: unknown[] = []) => (await deps.sql.query<Row>(text, params)).rows;

  /** An erasure is a few round trips (keys, the event, the read models' lookups): a handful at once, not one by one. */
  async function inParallel<T>(items: T[], work: (item: T) => Promise<void>) {
    const queue = [...items];
    const failures: unknown[] = [];
    const lanes = Array.from({ length: Math.min(deps.concurrency ?? 4, queue.length) }, async () => {
      // A failure stops this run (the subject is due again next time) once the erasures under way have ended.
      for (let item = queue.shift(); item !== undefined && failures.length === 0; item = queue.shift())
        await work(item).catch((error: unknown) => void failures.push(error));
    });
    await Promise.all(lanes);
    if (failures.length > 0) throw failures[0];
  }

  async function erase(subject: DataSubject, ownerId: string, now: Date) {
    await deps.erasure.erase(subject, { reason: 'retention', actor: ACTOR });
    await q(
      `INSERT INTO privacy_retention_erased (subject, owner_id, erased_at) VALUES ($1, $2, $3)
       ON CONFLICT (subject) DO UPDATE SET erased_at = EXCLUDED.erased_at`,
      [subjectKey(subject), ownerId, now.toISOString()],
    );
  }

  /** Threads whose last message (or start, if none) is before the cutoff and not erased since. */
  async function dueThreads(cutoff: Date) {
    return q<{ id: string; owner_id: string; channel: string }>(
      `SELECT t.id, t.assistant_owner_id AS owner_id, t.channel FROM threads t
       CROSS JOIN LATERAL (SELECT coalesce(max(m.created_at), t.created_at) AS last_at FROM thread_messages m WHERE m.thread_id = t.id) l
       WHERE l.last_at < $1
         AND NOT EXISTS (SELECT 1 FROM privacy_retention_erased e WHERE e.subject = 'thread:' || t.id AND e.erased_at >= l.last_at)
       ORDER BY l.last_at LIMIT $2`,
      [cutoff.toISOString(), batch],
    );
  }

  async function dueContacts(cutoff: Date) {
    return q<{ integration_id: string; chat_id: string; owner_id: string; kind: string }>(
      `SELECT c.integration_id, c.chat_id, c.owner_id, c.kind FROM channel_chats c
       WHERE c.last_message_at < $1
         AND NOT EXISTS (SELECT 1 FROM privacy_retention_erased e
                         WHERE e.subject = 'channel_contact:' || c.integration_id || ':' || c.chat_id AND e.erased_at >= c.last_message_at)
       ORDER BY c.last_message_at LIMIT $2`,
      [cutoff.toISOString(), batch],
    );
  }

  async function conversations(now: Date, perOwner: Map<string, number>) {
    const cutoff = daysBefore(now, deps.policy.conversationDays);
    let threads = 0;
    let contacts = 0;
    const count = (owner: string) => perOwner.set(owner, (perOwner.get(owner) ?? 0) + 1);
    for (let due = await dueThreads(cutoff); due.length > 0; due = await dueThreads(cutoff)) {
      await inParallel(due, async (thread) => {
        await erase({ kind: 'thread', threadId: thread.id }, thread.owner_id, now);
        count(thread.owner_id);
        threads++;
      });
    }
    for (let due = await dueContacts(cutoff); due.length > 0; due = await dueContacts(cutoff)) {
      await inParallel(due, async (contact) => {
        await erase(
          { kind: 'channel_contact', integrationId: contact.integration_id, chatId: contact.chat_id },
          contact.owner_id,
          now,
        );
        contacts++;
      });
    }
    return { threads, contacts };
  }

  /** Counts stay, the person goes: texts blanked, identities replaced by a hash that still counts as one. */
  async function analytics(now: Date): Promise<number> {
    const cutoff = monthsBefore(now, deps.policy.analyticsMonths);
    const day = cutoff.toISOString().slice(0, 10);
    const changed = await Promise.all([
      q<{ n: string }>(
        `WITH c AS (UPDATE analytics_queries SET query = '[erased]' WHERE created_at < $1 AND query <> '[erased]' RETURNING 1) SELECT count(*)::text AS n FROM c`,
        [cutoff.toISOString()],
      ),
      q<{ n: string }>(
        `WITH c AS (UPDATE analytics_participants SET participant = 'erased:' || md5(participant)
                    WHERE last_day < $1::date AND participant NOT LIKE 'erased:%' RETURNING 1) SELECT count(*)::text AS n FROM c`,
        [day],
      ),
      q<{ n: string }>(
        `WITH c AS (UPDATE analytics_feedback_ratings SET author_key = 'erased:' || md5(author_key)
                    WHERE day < $1::date AND author_key NOT LIKE 'erased:%' RETURNING 1) SELECT count(*)::text AS n FROM c`,
        [day],
      ),
    ]);
    return changed.reduce((sum, rows) => sum + Number(rows[0]?.n ?? 0), 0);
  }

  async function payments(now: Date): Promise<number> {
    const cutoff = monthsBefore(now, deps.policy.paymentYears * 12);
    const rows = await q<{ n: string }>(
      `WITH c AS (DELETE FROM billing_payments WHERE created_at < $1 RETURNING 1) SELECT count(*)::text AS n FROM c`,
      [cutoff.toISOString()],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Accounts with no activity since the cutoff and no paid plan running, with their warning if any. */
  async function inactiveAccounts(cutoff: Date) {
    return q<{ id: string; email: string; last_active: Date; warned_at: Date | null }>(
      `SELECT a.id, a.email, x.last_active, n.warned_at FROM accounts a
       CROSS JOIN LATERAL (SELECT greatest(
           a.created_at,
           (SELECT max(s.updated_at) FROM assistants s WHERE s.owner_id = a.id),
           (SELECT max(f.updated_at) FROM knowledge_files f WHERE f.owner_id = a.id),
           (SELECT max(m.created_at) FROM thread_messages m JOIN threads t ON t.id = m.thread_id WHERE t.assistant_owner_id = a.id OR t.owner_id = a.id),
           (SELECT v.last_active FROM account_activity v WHERE v.account_id = a.id)
         ) AS last_active) x
       LEFT JOIN privacy_inactivity_notices n ON n.account_id = a.id
       WHERE x.last_active < $1
         AND NOT EXISTS (SELECT 1 FROM billing_subscriptions b WHERE b.owner_id = a.id AND b.status IN ('active', 'trialing', 'past_due'))
         AND NOT EXISTS (SELECT 1 FROM privacy_retention_erased e WHERE e.subject = 'account:' || a.id)
       ORDER BY x.last_active LIMIT $2`,
      [cutoff.toISOString(), batch],
    );
  }

  async function accounts(now: Date) {
    const cutoff = monthsBefore(now, deps.policy.inactiveAccountMonths);
    const noticeEnds = daysBefore(now, deps.policy.inactiveNoticeDays);
    let warned = 0;
    let erased = 0;
    for (const account of await inactiveAccounts(cutoff)) {
      const warnedAt = account.warned_at && new Date(account.warned_at);
      // Activity after a warning makes it void: the next inactivity gets a warning of its own.
      if (!warnedAt || warnedAt < new Date(account.last_active)) {
        await deps.sendMail(
          inactivityMail(account.email, deps.publicUrl, deps.policy, daysBefore(now, -deps.policy.inactiveNoticeDays)),
        );
        await q(
          `INSERT INTO privacy_inactivity_notices (account_id, warned_at) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET warned_at = EXCLUDED.warned_at`,
          [account.id, now.toISOString()],
        );
        await deps.securityLog.record(account.id, {
          kind: 'inactivity_warning',
          actor: ACTOR,
          detail: { erase_after_days: deps.policy.inactiveNoticeDays },
        });
        warned++;
      } else if (warnedAt <= noticeEnds) {
        await deps.erasure.erase(
          { kind: 'account', accountId: account.id },
          { reason: 'inactive_account', actor: ACTOR },
        );
        await q(
          `INSERT INTO privacy_retention_erased (subject, owner_id, erased_at) VALUES ($1, $2, $3) ON CONFLICT (subject) DO NOTHING`,
          [`account:${account.id}`, account.id, now.toISOString()],
        );
        await q(`DELETE FROM privacy_inactivity_notices WHERE account_id = $1`, [account.id]);
        await deps.securityLog.forget(account.id);
        erased++;
      }
    }
    return { warned, erased };
  }

  async function run(): Promise<RetentionReport> {
    const now = clock();
    const perOwner = new Map<string, number>();
    const { threads, contacts } = await conversations(now, perOwner);
    // The owner reads in their security log that retention erased some of their conversations (how many, never which words).
    for (const [ownerId, count] of perOwner) {
      await deps.securityLog.record(ownerId, {
        kind: 'retention_run',
        actor: ACTOR,
        detail: { conversations: count, after_days: deps.policy.conversationDays },
      });
    }
    const analyticsShredded = await analytics(now);
    const securityLogPurged = await deps.securityLog.purgeBefore(monthsBefore(now, deps.policy.securityLogMonths));
    const paymentsPurged = await payments(now);
    const { warned, erased } = await accounts(now);
    return {
      conversations: threads,
      channelContacts: contacts,
      analyticsShredded,
      securityLogPurged,
      paymentsPurged,
      accountsWarned: warned,
      accountsErased: erased,
    };
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<RetentionReport> | undefined;
  /** One run at a time in this process; a tick during a run joins it. */
  const tick = () => (running ??= run().finally(() => (running = undefined)));

  return {
    tick,
    start() {
      const intervalMs = deps.intervalMs ?? 6 * 3600 * 1000;
      if (intervalMs <= 0) return;
      timer = setInterval(() => void tick().catch((error) => deps.onError?.(error)), intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}

export type RetentionRun = ReturnType<typeof createRetentionRun>;

function inactivityMail(to: string, publicUrl: string, policy: RetentionPolicy, eraseOn: Date) {
  const date = eraseOn.toISOString().slice(0, 10);
  const text = [
    `Your Kesher account has been inactive for ${policy.inactiveAccountMonths} months.`,
    `Unless you use it again before ${date} (chat with one of your assistants, or change an assistant or a file), it will be deleted with its assistants, files and conversations.`,
    `Sign in: ${publicUrl}/login`,
    '',
    `חשבון קשר שלך לא היה פעיל ${policy.inactiveAccountMonths} חודשים.`,
    `אם לא תשתמשו בו שוב עד ${date} (שיחה עם אחד העוזרים, או שינוי של עוזר או קובץ), הוא יימחק יחד עם העוזרים, הקבצים והשיחות.`,
    `כניסה: ${publicUrl}/login`,
  ].join('\n');
  const html = text
    .split('\n')
    .map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
    .join('');
  return { to, subject: 'Your Kesher account will be deleted / חשבון קשר שלך יימחק', text, html };
}
