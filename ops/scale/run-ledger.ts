import { connectClient } from './pg-connect.js';

export interface RunLedger {
  requested: number;
  outcomes: Record<string, number>;
  /** Runs without any outcome, with more than one, and runs answered by more than one assistant message. */
  unsettled: string[];
  twoOutcomes: { runId: string; outcomes: string[] }[];
  twoAnswers: { runId: string; answers: number }[];
  outcomeOf: Map<string, string>;
}

/**
 * Reads the event log itself (the `events` table), not a read model: every `RunRequested` must have
 * exactly one outcome (`RunCompleted`, `RunFailed` or `RunExpired`) and at most one assistant
 * `MessagePosted`, whatever process died meanwhile.
 */
export async function readRunLedger(databaseUrl: string): Promise<RunLedger> {
  const client = await connectClient(databaseUrl);
  try {
    const { rows } = await client.query<{ run_id: string; outcomes: string[]; answers: number }>(`
      WITH requested AS (SELECT DISTINCT data->>'runId' AS run_id FROM events WHERE event_type = 'RunRequested'),
      outcomes AS (SELECT data->>'runId' AS run_id, event_type FROM events WHERE event_type IN ('RunCompleted', 'RunFailed', 'RunExpired')),
      answers AS (
        SELECT data->>'runId' AS run_id, count(*)::int AS answers FROM events
        WHERE event_type = 'MessagePosted' AND data->>'role' = 'assistant' AND data->>'runId' IS NOT NULL GROUP BY 1
      )
      SELECT r.run_id,
             coalesce(array_agg(o.event_type ORDER BY o.event_type) FILTER (WHERE o.event_type IS NOT NULL), '{}') AS outcomes,
             coalesce(max(a.answers), 0) AS answers
      FROM requested r LEFT JOIN outcomes o USING (run_id) LEFT JOIN answers a USING (run_id)
      GROUP BY r.run_id`);
    const ledger: RunLedger = {
      requested: rows.length,
      outcomes: {},
      unsettled: [],
      twoOutcomes: [],
      twoAnswers: [],
      outcomeOf: new Map(),
    };
    for (const row of rows) {
      if (row.outcomes.length === 0) ledger.unsettled.push(row.run_id);
      if (row.outcomes.length > 1) ledger.twoOutcomes.push({ runId: row.run_id, outcomes: row.outcomes });
      if (row.answers > 1) ledger.twoAnswers.push({ runId: row.run_id, answers: row.answers });
      for (const outcome of row.outcomes) ledger.outcomes[outcome] = (ledger.outcomes[outcome] ?? 0) + 1;
      if (row.outcomes[0]) ledger.outcomeOf.set(row.run_id, row.outcomes[0]);
    }
    return ledger;
  } finally {
    await client.end();
  }
}
