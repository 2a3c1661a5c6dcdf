import type { Queryable } from '@kesher/contracts/ports/projection';
import { defineBatchProjection } from '../shared/typed-projection.js';

/**
 * The automation read model: each owner's workflows, guidelines and actions as saved (the item's fields
 * as jsonb, secrets still sealed), each assistant's external API endpoints, and what runs did with them —
 * the workflows that fired and the action calls made, by thread (the conversation view and analytics).
 */
const tables = [
  'automation_items',
  'automation_external_apis',
  'automation_firings',
  'automation_action_calls',
] as const;

type Kind = 'workflow' | 'guideline' | 'action';

async function upsert(db: Queryable, kind: Kind, ownerId: string, id: string, fields: unknown, at: string) {
  await db.query(
    `INSERT INTO automation_items (kind, id, owner_id, fields, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)
     ON CONFLICT (kind, id) DO UPDATE SET fields = EXCLUDED.fields, updated_at = EXCLUDED.updated_at`,
    [kind, id, ownerId, JSON.stringify(fields), at],
  );
}

export const automationProjection = defineBatchProjection({
  name: 'automation',
  version: 1,
  eventTypes: [
    'WorkflowCreated',
    'WorkflowUpdated',
    'WorkflowDeleted',
    'GuidelineCreated',
    'GuidelineUpdated',
    'GuidelineDeleted',
    'ActionCreated',
    'ActionUpdated',
    'ActionDeleted',
    'ExternalApiConfigured',
    'ExternalApiConfigDeleted',
    'WorkflowFired',
    'ActionCalled',
    'AssistantDeleted',
  ],
  tables,
  migrations: [
    {
      id: '001-tables',
      sql: `
CREATE TABLE IF NOT EXISTS automation_items (
  kind text NOT NULL,
  id text NOT NULL,
  owner_id text NOT NULL,
  fields jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS automation_items_owner ON automation_items (owner_id, kind, created_at);
CREATE TABLE IF NOT EXISTS automation_external_apis (
  assistant_id text PRIMARY KEY,
  owner_id text NOT NULL,
  endpoints jsonb NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS automation_firings (
  run_id text NOT NULL,
  workflow_id text NOT NULL,
  thread_id text NOT NULL,
  title text NOT NULL,
  score double precision NOT NULL,
  matched_on text NOT NULL,
  matched_phrases jsonb NOT NULL,
  fired_at timestamptz NOT NULL,
  PRIMARY KEY (run_id, workflow_id)
);
CREATE INDEX IF NOT EXISTS automation_firings_thread ON automation_firings (thread_id, fired_at);
CREATE INDEX IF NOT EXISTS automation_firings_workflow ON automation_firings (workflow_id, fired_at);
CREATE TABLE IF NOT EXISTS automation_action_calls (
  call_id text PRIMARY KEY,
  run_id text NOT NULL,
  thread_id text NOT NULL,
  action_id text NOT NULL,
  title text NOT NULL,
  success boolean NOT NULL,
  status_code int,
  duration_ms double precision NOT NULL,
  error text,
  called_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS automation_action_calls_thread ON automation_action_calls (thread_id, called_at);
`,
    },
  ],
  async applyBatch(db, events) {
    for (const event of events) {
      const at = event.metadata.timestamp;
      switch (event.type) {
        case 'WorkflowCreated':
        case 'WorkflowUpdated': {
          const d = event.data;
          await upsert(db, 'workflow', d.ownerId, d.workflowId, d.workflow, at);
          break;
        }
        case 'GuidelineCreated':
        case 'GuidelineUpdated': {
          const d = event.data;
          await upsert(db, 'guideline', d.ownerId, d.guidelineId, d.guideline, at);
          break;
        }
        case 'ActionCreated':
        case 'ActionUpdated': {
          const d = event.data;
          await upsert(db, 'action', d.ownerId, d.actionId, d.action, at);
          break;
        }
        case 'WorkflowDeleted': {
          const d = event.data;
          await db.query(`DELETE FROM automation_items WHERE kind = 'workflow' AND id = $1 AND owner_id = $2`, [
            d.workflowId,
            d.ownerId,
          ]);
          break;
        }
        case 'GuidelineDeleted': {
          const d = event.data;
          await db.query(`DELETE FROM automation_items WHERE kind = 'guideline' AND id = $1 AND owner_id = $2`, [
            d.guidelineId,
            d.ownerId,
          ]);
          break;
        }
        case 'ActionDeleted': {
          const d = event.data;
          await db.query(`DELETE FROM automation_items WHERE kind = 'action' AND id = $1 AND owner_id = $2`, [
            d.actionId,
            d.ownerId,
          ]);
          // The links go with the action (the decider listed where they were).
          await db.query(
            `UPDATE automation_items SET fields = jsonb_set(fields, '{linkedActions}', COALESCE((SELECT jsonb_agg(a) FROM jsonb_array_elements(fields->'linkedActions') a WHERE a <> to_jsonb($1::text)), '[]'::jsonb)), updated_at = $3
             WHERE owner_id = $2 AND kind IN ('workflow', 'guideline') AND id = ANY($4::text[])`,
            [d.actionId, d.ownerId, at, d.unlinkedFrom],
          );
          break;
        }
        case 'ExternalApiConfigured': {
          const d = event.data;
          await db.query(
            `INSERT INTO automation_external_apis (assistant_id, owner_id, endpoints, updated_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (assistant_id) DO UPDATE SET endpoints = EXCLUDED.endpoints, updated_at = EXCLUDED.updated_at`,
            [d.assistantId, d.ownerId, JSON.stringify(d.endpoints), at],
          );
          break;
        }
        case 'ExternalApiConfigDeleted': {
          const d = event.data;
          await db.query(`DELETE FROM automation_external_apis WHERE assistant_id = $1 AND owner_id = $2`, [
            d.assistantId,
            d.ownerId,
          ]);
          break;
        }
        case 'AssistantDeleted': {
          const d = event.data;
          await db.query(`DELETE FROM automation_external_apis WHERE assistant_id = $1`, [d.assistantId]);
          break;
        }
        case 'WorkflowFired': {
          const d = event.data;
          await db.query(
            `INSERT INTO automation_firings (run_id, workflow_id, thread_id, title, score, matched_on, matched_phrases, fired_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (run_id, workflow_id) DO NOTHING`,
            [d.runId, d.workflowId, d.threadId, d.title, d.score, d.matchedOn, JSON.stringify(d.matchedPhrases), at],
          );
          break;
        }
        case 'ActionCalled': {
          const d = event.data;
          await db.query(
            `INSERT INTO automation_action_calls (call_id, run_id, thread_id, action_id, title, success, status_code, duration_ms, error, called_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (call_id) DO NOTHING`,
            [d.callId, d.runId, d.threadId, d.actionId, d.title, d.success, d.statusCode, d.durationMs, d.error, at],
          );
          break;
        }
        default:
          break;
      }
    }
  },
});
