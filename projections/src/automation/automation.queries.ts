import type { ActionFields, ExternalEndpointStored, GuidelineFields, WorkflowFields } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';

const iso = (value: Date | string) => new Date(value).toISOString();

export interface Saved<Fields> {
  id: string;
  ownerId: string;
  fields: Fields;
  createdAt: string;
  updatedAt: string;
}

interface ItemRow {
  id: string;
  owner_id: string;
  fields: unknown;
  created_at: Date | string;
  updated_at: Date | string;
}

const toSaved = <Fields>(row: ItemRow): Saved<Fields> => ({
  id: row.id,
  ownerId: row.owner_id,
  fields: (typeof row.fields === 'string' ? JSON.parse(row.fields) : row.fields) as Fields,
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
});

export interface WorkflowFiring {
  runId: string;
  workflowId: string;
  threadId: string;
  title: string;
  score: number;
  matchedOn: string;
  matchedPhrases: string[];
  firedAt: string;
}

export interface ActionCallRecord {
  callId: string;
  runId: string;
  threadId: string;
  actionId: string;
  title: string;
  success: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  calledAt: string;
}

/** Reads of the automation read model; every read of an owner's items is scoped by the owner. */
export function automationQueries(db: Queryable) {
  async function list<Fields>(kind: string, ownerId: string): Promise<Saved<Fields>[]> {
    const { rows } = await db.query<ItemRow>(
      `SELECT id, owner_id, fields, created_at, updated_at FROM automation_items WHERE kind = $1 AND owner_id = $2 ORDER BY created_at, id`,
      [kind, ownerId],
    );
    return rows.map((row) => toSaved<Fields>(row));
  }
  async function one<Fields>(kind: string, ownerId: string, id: string): Promise<Saved<Fields> | undefined> {
    const { rows } = await db.query<ItemRow>(
      `SELECT id, owner_id, fields, created_at, updated_at FROM automation_items WHERE kind = $1 AND owner_id = $2 AND id = $3`,
      [kind, ownerId, id],
    );
    return rows[0] ? toSaved<Fields>(rows[0]) : undefined;
  }
  return {
    workflows: (ownerId: string) => list<WorkflowFields>('workflow', ownerId),
    workflow: (ownerId: string, id: string) => one<WorkflowFields>('workflow', ownerId, id),
    guidelines: (ownerId: string) => list<GuidelineFields>('guideline', ownerId),
    guideline: (ownerId: string, id: string) => one<GuidelineFields>('guideline', ownerId, id),
    actions: (ownerId: string) => list<ActionFields>('action', ownerId),
    action: (ownerId: string, id: string) => one<ActionFields>('action', ownerId, id),
    async externalApi(
      ownerId: string,
      assistantId: string,
    ): Promise<{ endpoints: ExternalEndpointStored[]; updatedAt: string } | undefined> {
      const { rows } = await db.query<{ endpoints: unknown; updated_at: Date | string }>(
        `SELECT endpoints, updated_at FROM automation_external_apis WHERE owner_id = $1 AND assistant_id = $2`,
        [ownerId, assistantId],
      );
      const row = rows[0];
      if (!row) return undefined;
      return {
        endpoints: (typeof row.endpoints === 'string'
          ? JSON.parse(row.endpoints)
          : row.endpoints) as ExternalEndpointStored[],
        updatedAt: iso(row.updated_at),
      };
    },
    /**
     * What every chat run reads of an owner's automation — the workflows, guidelines and actions (each in
     * creation order, as their lists) and the assistant's named endpoints — in one statement instead of four.
     */
    async forRun(ownerId: string, assistantId: string) {
      const { rows } = await db.query<ItemRow & { kind: string }>(
        `SELECT kind, id, owner_id, fields, created_at, updated_at FROM automation_items WHERE owner_id = $1 AND kind IN ('workflow', 'guideline', 'action')
         UNION ALL
         SELECT 'external_api', assistant_id, owner_id, endpoints, updated_at, updated_at FROM automation_external_apis WHERE owner_id = $1 AND assistant_id = $2
         ORDER BY created_at, id`,
        [ownerId, assistantId],
      );
      const of = <Fields>(kind: string) => rows.filter((row) => row.kind === kind).map((row) => toSaved<Fields>(row));
      const external = rows.find((row) => row.kind === 'external_api');
      return {
        workflows: of<WorkflowFields>('workflow'),
        guidelines: of<GuidelineFields>('guideline'),
        actions: of<ActionFields>('action'),
        externalApi: external
          ? {
              endpoints: (typeof external.fields === 'string'
                ? JSON.parse(external.fields)
                : external.fields) as ExternalEndpointStored[],
              updatedAt: iso(external.updated_at),
            }
          : undefined,
      };
    },
    /** The workflows that fired in a thread, oldest first (the conversation view; the caller checks the thread is the owner's). */
    async firings(threadId: string): Promise<WorkflowFiring[]> {
      const { rows } = await db.query<{
        run_id: string;
        workflow_id: string;
        thread_id: string;
        title: string;
        score: number;
        matched_on: string;
        matched_phrases: unknown;
        fired_at: Date | string;
      }>(
        `SELECT run_id, workflow_id, thread_id, title, score, matched_on, matched_phrases, fired_at FROM automation_firings WHERE thread_id = $1 ORDER BY fired_at`,
        [threadId],
      );
      return rows.map((r) => ({
        runId: r.run_id,
        workflowId: r.workflow_id,
        threadId: r.thread_id,
        title: r.title,
        score: Number(r.score),
        matchedOn: r.matched_on,
        matchedPhrases: (typeof r.matched_phrases === 'string'
          ? JSON.parse(r.matched_phrases)
          : r.matched_phrases) as string[],
        firedAt: iso(r.fired_at),
      }));
    },
    async actionCalls(threadId: string): Promise<ActionCallRecord[]> {
      const { rows } = await db.query<{
        call_id: string;
        run_id: string;
        thread_id: string;
        action_id: string;
        title: string;
        success: boolean;
        status_code: number | null;
        duration_ms: number;
        error: string | null;
        called_at: Date | string;
      }>(
        `SELECT call_id, run_id, thread_id, action_id, title, success, status_code, duration_ms, error, called_at FROM automation_action_calls WHERE thread_id = $1 ORDER BY called_at`,
        [threadId],
      );
      return rows.map((r) => ({
        callId: r.call_id,
        runId: r.run_id,
        threadId: r.thread_id,
        actionId: r.action_id,
        title: r.title,
        success: r.success,
        statusCode: r.status_code,
        durationMs: Number(r.duration_ms),
        error: r.error,
        calledAt: iso(r.called_at),
      }));
    },
    /** Per workflow and per action of the owner's conversations since `since`: how often a message fired them (turns it merely stayed in force are not counted) and how the calls fared (analytics). */
    async stats(ownerId: string, since: Date) {
      const workflows = await db.query<{
        workflow_id: string;
        title: string;
        fired: string | number;
        conversations: string | number;
        last_fired_at: Date | string | null;
      }>(
        `SELECT f.workflow_id, max(f.title) AS title, count(*) AS fired, count(DISTINCT f.thread_id) AS conversations, max(f.fired_at) AS last_fired_at
         FROM automation_firings f JOIN threads t ON t.id = f.thread_id
         WHERE t.assistant_owner_id = $1 AND f.fired_at >= $2 AND f.matched_on <> 'continued' GROUP BY f.workflow_id ORDER BY count(*) DESC, f.workflow_id`,
        [ownerId, since.toISOString()],
      );
      const actions = await db.query<{
        action_id: string;
        title: string;
        calls: string | number;
        failed: string | number;
        avg_duration_ms: string | number;
      }>(
        `SELECT c.action_id, max(c.title) AS title, count(*) AS calls, count(*) FILTER (WHERE NOT c.success) AS failed, avg(c.duration_ms) AS avg_duration_ms
         FROM automation_action_calls c JOIN threads t ON t.id = c.thread_id
         WHERE t.assistant_owner_id = $1 AND c.called_at >= $2 GROUP BY c.action_id ORDER BY count(*) DESC, c.action_id`,
        [ownerId, since.toISOString()],
      );
      return {
        workflows: workflows.rows.map((r) => ({
          workflowId: r.workflow_id,
          title: r.title,
          fired: Number(r.fired),
          conversations: Number(r.conversations),
          lastFiredAt: r.last_fired_at ? iso(r.last_fired_at) : null,
        })),
        actions: actions.rows.map((r) => ({
          actionId: r.action_id,
          title: r.title,
          calls: Number(r.calls),
          failed: Number(r.failed),
          avgDurationMs: Math.round(Number(r.avg_duration_ms) * 10) / 10,
        })),
      };
    },
  };
}
export type AutomationQueries = ReturnType<typeof automationQueries>;
