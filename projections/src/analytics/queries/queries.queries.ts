import type { Queryable } from '@kesher/contracts/ports/projection';
import { num, rangeFilter, type OwnerScope } from '../shared/owner-scope.js';

export interface QueryLogRow {
  id: string;
  ownerId: string;
  assistantId: string | null;
  threadId: string | null;
  query: string;
  channel: string | null;
  source: 'chat' | 'tracked';
  status: 'pending' | 'success' | 'failed' | 'expired';
  responseTimeMs: number | null;
  createdAt: Date;
}

export function queryLogQueries(db: Queryable) {
  return {
    /** The newest queries, optionally only answered ones, of one assistant. */
    async recent(
      scope: OwnerScope,
      options: { limit: number; successOnly: boolean; assistantId?: string | null },
    ): Promise<QueryLogRow[]> {
      const params: unknown[] = [];
      let where = rangeFilter(scope, null, params, { assistantId: options.assistantId });
      if (options.successOnly) where += ` AND status = 'success'`;
      params.push(options.limit);
      const { rows } = await db.query<{
        id: string;
        owner_id: string;
        assistant_id: string | null;
        thread_id: string | null;
        query: string;
        channel: string | null;
        source: 'chat' | 'tracked';
        status: QueryLogRow['status'];
        response_time_ms: unknown;
        created_at: Date;
      }>(
        `SELECT id, owner_id, assistant_id, thread_id, query, channel, source, status, response_time_ms, created_at FROM analytics_queries
         WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
        params,
      );
      return rows.map((row) => ({
        id: row.id,
        ownerId: row.owner_id,
        assistantId: row.assistant_id,
        threadId: row.thread_id,
        query: row.query,
        channel: row.channel,
        source: row.source,
        status: row.status,
        responseTimeMs: row.response_time_ms == null ? null : num(row.response_time_ms),
        createdAt: new Date(row.created_at),
      }));
    },
  };
}

export type QueryLogQueries = ReturnType<typeof queryLogQueries>;
