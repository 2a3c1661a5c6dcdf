import type { RecordedEvent } from '@kesher/contracts';
import type { Projection, Queryable } from '@kesher/contracts/ports/projection';
import { counterBatch } from '../shared/counter-upsert.js';
import { factsOf } from '../shared/facts.js';
import { threadDirectory } from '../shared/thread-directory.js';

const threads = threadDirectory('analytics_feedback_threads');

interface Rating {
  ownerId: string;
  assistantId: string;
  day: string;
  rating: 'like' | 'dislike';
  hasComment: boolean;
}

const counts = (rating: Rating, sign: 1 | -1) => ({
  positive: rating.rating === 'like' ? sign : 0,
  negative: rating.rating === 'dislike' ? sign : 0,
  with_comments: rating.hasComment ? sign : 0,
});

/**
 * One rating per message and author counts, the latest: a changed rating takes its earlier count back
 * (from the day it was given) and counts on the day of the change. The batch is replayed in log order
 * against the ratings as stored, so several changes within one batch end as one at a time would.
 */
async function applyBatch(db: Queryable, events: readonly RecordedEvent[]) {
  const recorded = await threads.record(db, events);
  const given = factsOf(events, 'FeedbackGiven');
  if (given.length === 0) return;
  const known = await threads.lookup(
    db,
    given.map((f) => f.data.threadId),
    recorded,
  );
  const keyOf = (messageId: string, authorKey: string) => `${messageId}\u0000${authorKey}`;
  const { rows } = await db.query<{
    message_id: string;
    author_key: string;
    owner_id: string;
    assistant_id: string;
    day: string;
    rating: 'like' | 'dislike';
    has_comment: boolean;
  }>(
    `SELECT r.message_id, r.author_key, owner_id, assistant_id, to_char(day, 'YYYY-MM-DD') AS day, rating, has_comment
     FROM analytics_feedback_ratings r JOIN unnest($1::text[], $2::text[]) AS k(message_id, author_key) ON r.message_id = k.message_id AND r.author_key = k.author_key`,
    [given.map((f) => f.data.messageId), given.map((f) => f.data.authorKey)],
  );
  const ratings = new Map<string, Rating>(
    rows.map((r) => [
      keyOf(r.message_id, r.author_key),
      { ownerId: r.owner_id, assistantId: r.assistant_id, day: r.day, rating: r.rating, hasComment: r.has_comment },
    ]),
  );
  const changed = new Map<string, { messageId: string; authorKey: string; rating: Rating }>();
  const daily = counterBatch({
    table: 'analytics_feedback_daily',
    keys: { owner_id: 'text', day: 'date', assistant_id: 'text' },
    counters: { positive: 'int', negative: 'int', with_comments: 'int' },
  });

  for (const fact of given) {
    const thread = known.get(fact.data.threadId);
    if (!thread) continue;
    const key = keyOf(fact.data.messageId, fact.data.authorKey);
    const before = ratings.get(key);
    const now: Rating = {
      ownerId: thread.ownerId,
      assistantId: fact.data.assistantId,
      day: fact.day,
      rating: fact.data.rating,
      hasComment: Boolean(fact.data.comment?.trim()),
    };
    if (before)
      daily.add({ owner_id: before.ownerId, day: before.day, assistant_id: before.assistantId }, counts(before, -1));
    daily.add({ owner_id: now.ownerId, day: now.day, assistant_id: now.assistantId }, counts(now, 1));
    ratings.set(key, now);
    changed.set(key, { messageId: fact.data.messageId, authorKey: fact.data.authorKey, rating: now });
  }
  await daily.write(db);
  if (changed.size === 0) return;
  const latest = [...changed.values()];
  await db.query(
    `INSERT INTO analytics_feedback_ratings (message_id, author_key, owner_id, assistant_id, day, rating, has_comment)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::date[], $6::text[], $7::boolean[])
     ON CONFLICT (message_id, author_key) DO UPDATE SET owner_id = excluded.owner_id, assistant_id = excluded.assistant_id, day = excluded.day,
       rating = excluded.rating, has_comment = excluded.has_comment`,
    [
      latest.map((c) => c.messageId),
      latest.map((c) => c.authorKey),
      latest.map((c) => c.rating.ownerId),
      latest.map((c) => c.rating.assistantId),
      latest.map((c) => c.rating.day),
      latest.map((c) => c.rating.rating),
      latest.map((c) => c.rating.hasComment),
    ],
  );
}

/** Likes and dislikes on answers per owner, assistant and day (the latest rating of each author counts). */
export const feedbackProjection: Projection = {
  name: 'analytics-feedback',
  version: 1,
  eventTypes: ['ThreadStarted', 'FeedbackGiven'],
  tables: [threads.table, 'analytics_feedback_ratings', 'analytics_feedback_daily'],
  migrations: [
    {
      id: '001-tables',
      sql: `
${threads.migration}
CREATE TABLE IF NOT EXISTS analytics_feedback_ratings (
  message_id text NOT NULL,
  author_key text NOT NULL,
  owner_id text NOT NULL,
  assistant_id text NOT NULL,
  day date NOT NULL,
  rating text NOT NULL,
  has_comment boolean NOT NULL,
  PRIMARY KEY (message_id, author_key)
);
CREATE TABLE IF NOT EXISTS analytics_feedback_daily (
  owner_id text NOT NULL,
  day date NOT NULL,
  assistant_id text NOT NULL,
  positive int NOT NULL DEFAULT 0,
  negative int NOT NULL DEFAULT 0,
  with_comments int NOT NULL DEFAULT 0,
  PRIMARY KEY (owner_id, day, assistant_id)
);
`,
    },
  ],
  apply: applyBatch,
};
