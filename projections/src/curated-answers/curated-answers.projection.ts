import type {
  AnswerCurated,
  AssistantDeleted,
  CuratedAnswerDeleted,
  CuratedAnswerEdited,
  RunCompleted,
} from '@kesher/contracts';
import type { Projection } from '@kesher/contracts/ports/projection';

/** A run's source names a curated answer by its id (knowledge/curated: the passage's fileId is the qa id). */
export const isCuratedSourceId = (fileId: string) => fileId.startsWith('qa_');

/**
 * The owners' curated answers (issue 26), as the Q&A list and the answer engines read them, and which runs
 * each one answered (its hits, counted over the last 30 days). Deleting a Q&A or its assistant removes it at
 * once, so it stops answering as soon as the read model has the event.
 */
export const curatedAnswersProjection: Projection = {
  name: 'curated-answers',
  version: 1,
  eventTypes: ['AnswerCurated', 'CuratedAnswerEdited', 'CuratedAnswerDeleted', 'AssistantDeleted', 'RunCompleted'],
  tables: ['curated_answers', 'curated_answer_hits'],
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS curated_answers (
  qa_id text PRIMARY KEY,
  assistant_id text NOT NULL,
  owner_id text NOT NULL,
  question text NOT NULL,
  answer text NOT NULL,
  source_thread_id text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS curated_answers_assistant ON curated_answers (assistant_id, created_at);
CREATE TABLE IF NOT EXISTS curated_answer_hits (
  run_id text NOT NULL,
  qa_id text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (qa_id, run_id)
);
`,
    },
  ],
  async apply(db, events) {
    for (const event of events) {
      switch (event.type) {
        case 'AnswerCurated': {
          const d = event.data as AnswerCurated;
          await db.query(
            `INSERT INTO curated_answers (qa_id, assistant_id, owner_id, question, answer, source_thread_id, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7) ON CONFLICT (qa_id) DO NOTHING`,
            [
              d.qaId,
              d.assistantId,
              d.ownerId,
              d.question,
              d.answer,
              d.sourceThreadId ?? null,
              event.metadata.timestamp,
            ],
          );
          break;
        }
        case 'CuratedAnswerEdited': {
          const d = event.data as CuratedAnswerEdited;
          await db.query(`UPDATE curated_answers SET question = $2, answer = $3, updated_at = $4 WHERE qa_id = $1`, [
            d.qaId,
            d.question,
            d.answer,
            event.metadata.timestamp,
          ]);
          break;
        }
        case 'CuratedAnswerDeleted': {
          const { qaId } = event.data as CuratedAnswerDeleted;
          await db.query(`DELETE FROM curated_answers WHERE qa_id = $1`, [qaId]);
          await db.query(`DELETE FROM curated_answer_hits WHERE qa_id = $1`, [qaId]);
          break;
        }
        case 'AssistantDeleted': {
          const { assistantId } = event.data as AssistantDeleted;
          await db.query(
            `DELETE FROM curated_answer_hits WHERE qa_id IN (SELECT qa_id FROM curated_answers WHERE assistant_id = $1)`,
            [assistantId],
          );
          await db.query(`DELETE FROM curated_answers WHERE assistant_id = $1`, [assistantId]);
          break;
        }
        case 'RunCompleted': {
          const d = event.data as RunCompleted;
          const qaIds = d.sources.map((source) => source.fileId).filter(isCuratedSourceId);
          if (qaIds.length === 0) break;
          // Only a Q&A that still exists is counted: a hit recorded after its deletion is dropped.
          await db.query(
            `INSERT INTO curated_answer_hits (run_id, qa_id, at)
             SELECT $1, qa_id, $3 FROM curated_answers WHERE qa_id = ANY($2::text[]) ON CONFLICT DO NOTHING`,
            [d.runId, qaIds, event.metadata.timestamp],
          );
          break;
        }
      }
    }
  },
};
