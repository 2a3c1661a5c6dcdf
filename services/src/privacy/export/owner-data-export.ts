import Papa from 'papaparse';
import { strToU8, zipSync, type Zippable } from 'fflate';
import type { SqlExecutor } from '../../platform/sql/sql.port.js';

/** Who asks: the signed-in owner. Every query below is scoped by `id` — another owner's rows never enter. */
export interface ExportingOwner {
  id: string;
  email: string;
}

/** One file of the archive: its path inside the zip and its text. */
export interface ExportEntry {
  path: string;
  text: string;
}

type Row = Record<string, unknown>;

/**
 * "Download my data" (spec part 2: rights requests answered within 30 days — here at once): what Kesher
 * holds about an owner, read from the read models, as JSON (nested things: assistants, conversations
 * with their messages) and CSV (tables an owner opens in a spreadsheet: files, analytics, payments).
 *
 * Left out on purpose: secrets (password hash, channel tokens — sealed or not, they are credentials, not
 * data about the person) and the knowledge files' extracted text (the owner has the files themselves).
 */
export function createOwnerDataExport(deps: { readDb: SqlExecutor; clock: () => Date }) {
  const q = async (text: string, params: unknown[]) => (await deps.readDb.query<Row>(text, params)).rows;

  async function entries(owner: ExportingOwner): Promise<ExportEntry[]> {
    const id = owner.id;
    const [
      account,
      assistants,
      files,
      threads,
      messages,
      channelChats,
      channels,
      activity,
      totals,
      subscription,
      payments,
    ] = await Promise.all([
      q(`SELECT id, email, display_name, provider, email_verified, created_at FROM accounts WHERE id = $1`, [id]),
      q(
        `SELECT numeric_id AS assistant_id, name, description, instructions, website_url, share_token IS NOT NULL AS shared, visitor_daily_limit, created_at, updated_at
         FROM assistants WHERE owner_id = $1 ORDER BY numeric_id`,
        [id],
      ),
      q(
        `SELECT f.id AS file_id, a.numeric_id AS assistant_id, f.filename, f.kind, f.bytes, f.source_url, f.status, f.language, f.created_at
         FROM knowledge_files f LEFT JOIN assistants a ON a.id = f.assistant_id WHERE f.owner_id = $1 ORDER BY f.created_at, f.id`,
        [id],
      ),
      // The owner's own chats and every conversation visitors and channel customers had with their assistants.
      q(
        `SELECT t.id AS thread_id, a.numeric_id AS assistant_id, t.channel, t.is_public, t.title, t.contact_name, t.created_at
         FROM threads t LEFT JOIN assistants a ON a.id = t.assistant_id
         WHERE t.assistant_owner_id = $1 OR t.owner_id = $1 ORDER BY t.created_at, t.id`,
        [id],
      ),
      q(
        `SELECT m.thread_id, m.role, m.text, m.language, m.created_at FROM thread_messages m JOIN threads t ON t.id = m.thread_id
         WHERE t.assistant_owner_id = $1 OR t.owner_id = $1 ORDER BY m.thread_id, m.log_position, m.id`,
        [id],
      ),
      q(
        `SELECT kind AS channel, chat_id, name, messages, first_message_at, last_message_at FROM channel_chats WHERE owner_id = $1 ORDER BY first_message_at`,
        [id],
      ),
      // The connection's public account (bot name, number); its tokens stay out.
      q(
        `SELECT c.kind AS channel, a.numeric_id AS assistant_id, c.account, c.active, c.connected_at, c.disconnected_at
         FROM channel_integrations c LEFT JOIN assistants a ON a.id = c.assistant_id WHERE c.owner_id = $1 ORDER BY c.connected_at`,
        [id],
      ),
      q(
        `SELECT d.day::text AS day, a.numeric_id AS assistant_id, d.channel, d.conversations, d.queries, d.answers, d.feedback, d.runs_completed, d.runs_failed
         FROM analytics_daily_activity d LEFT JOIN assistants a ON a.id = d.assistant_id WHERE d.owner_id = $1 ORDER BY d.day, a.numeric_id, d.channel`,
        [id],
      ),
      q(`SELECT conversations, messages, feedback FROM analytics_owner_totals WHERE owner_id = $1`, [id]),
      q(
        `SELECT provider, tier, billing_period, status, cancel_at_period_end, current_period_start, current_period_end FROM billing_subscriptions WHERE owner_id = $1`,
        [id],
      ),
      q(
        `SELECT payment_id, created_at, description, amount, currency, status, card_last4 FROM billing_payments WHERE owner_id = $1 ORDER BY created_at`,
        [id],
      ),
    ]);

    const byThread = new Map<string, Row[]>();
    for (const message of messages) {
      const list = byThread.get(String(message.thread_id)) ?? [];
      list.push({
        role: message.role,
        text: message.text,
        language: message.language,
        created_at: iso(message.created_at),
      });
      byThread.set(String(message.thread_id), list);
    }
    const conversations = threads.map((thread) => ({
      ...clean(thread),
      messages: byThread.get(String(thread.thread_id)) ?? [],
    }));

    return [
      { path: 'README.txt', text: readme(owner, deps.clock()) },
      { path: 'account.json', text: json(account[0] ? clean(account[0]) : { id, email: owner.email }) },
      { path: 'assistants.json', text: json(assistants.map(clean)) },
      { path: 'files.csv', text: csv(files) },
      { path: 'conversations.json', text: json(conversations) },
      {
        path: 'conversations.csv',
        text: csv(
          messages.map((m) => ({ ...m, channel: threads.find((t) => t.thread_id === m.thread_id)?.channel ?? '' })),
        ),
      },
      { path: 'channels.json', text: json({ connections: channels.map(clean), chats: channelChats.map(clean) }) },
      { path: 'analytics/daily-activity.csv', text: csv(activity) },
      { path: 'analytics/totals.json', text: json(totals[0] ?? { conversations: 0, messages: 0, feedback: 0 }) },
      { path: 'payments/subscription.json', text: json(subscription[0] ?? null) },
      { path: 'payments/payments.csv', text: csv(payments) },
    ];
  }

  return {
    entries,
    /** The archive the route sends. */
    async zip(owner: ExportingOwner): Promise<Uint8Array> {
      const files: Zippable = {};
      for (const entry of await entries(owner)) files[entry.path] = strToU8(entry.text);
      // Stamped with the day, not the moment: the same data exported twice the same day is the same archive.
      return zipSync(files, { level: 6, mtime: `${deps.clock().toISOString().slice(0, 10)}T00:00:00.000Z` });
    },
  };
}

export type OwnerDataExport = ReturnType<typeof createOwnerDataExport>;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
const clean = (row: Row): Row => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, iso(value)]));
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab/CR) as a formula: a visitor's message
 * "=HYPERLINK(…)" would run on the owner's machine. Such cells are written with a leading apostrophe.
 */
export function csvCell(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text =
    value === null || value === undefined
      ? ''
      : value instanceof Date
        ? value.toISOString()
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

function csv(rows: Row[]): string {
  if (rows.length === 0) return '';
  const columns = Object.keys(rows[0]!);
  return `${Papa.unparse({ fields: columns, data: rows.map((row) => columns.map((column) => csvCell(row[column]))) }, { newline: '\n' })}\n`;
}

function readme(owner: ExportingOwner, at: Date): string {
  return [
    `Kesher — your data (${owner.email}), exported on ${at.toISOString().slice(0, 10)}`,
    '',
    'account.json                 your account (no password: it is stored only as a one-way hash)',
    'assistants.json              your assistants and their settings',
    'files.csv                    the files and crawled pages your assistants learn from',
    'conversations.json / .csv    every conversation with your assistants, with its channel and messages',
    'channels.json                your Telegram/WhatsApp/Instagram connections (no tokens) and their chats',
    'analytics/                   daily activity and totals',
    'payments/                    your subscription and payments (kept 7 years, as the law requires)',
    '',
    'Conversations are kept 90 days after their last message; see /privacy.',
    '',
  ].join('\n');
}
