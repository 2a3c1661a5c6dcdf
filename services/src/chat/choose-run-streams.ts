import type { Sql } from '../platform/sql/sql.port.js';
import { createNotifyRunStreamHub } from './notify.run-stream-hub.js';
import { createRunStreamHub, type RunStreamHub } from './run-stream-hub.js';

export type LiveAnswers = RunStreamHub & { listen?: () => Promise<void>; close?: () => Promise<void> };

/**
 * The composition roots' one decision about live answers. API and ai-runner in one process share the
 * in-process hub. Split into processes (api.main, workers.main) on Postgres, they talk through
 * LISTEN/NOTIFY on the database they already share. PGlite cannot be shared by two processes, so there
 * the split never happens and the in-process hub is the answer too.
 */
export function chooseRunStreams(sql: Sql, deployment: 'one-process' | 'split', onError?: (error: unknown) => void): LiveAnswers {
  if (deployment === 'split' && sql.kind === 'postgres') return createNotifyRunStreamHub({ sql, onError });
  return createRunStreamHub();
}
