import { ConversationAutomationSchema, WorkflowStatsSchema } from '@kesher/contracts';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET /automation/conversations/{threadId}: which workflows fired (and why) and which actions ran in one
 * conversation. One query per conversation: every answer's note reads its own run out of the same answer.
 */
export const getConversationAutomation = (threadId: string, signal?: AbortSignal) =>
  api.get(`/automation/conversations/${encodeURIComponent(threadId)}`, ConversationAutomationSchema, { signal });
export const conversationAutomationQuery = (threadId: string) =>
  queryOptions({
    queryKey: ['automation', 'conversation', threadId],
    queryFn: ({ signal }) => getConversationAutomation(threadId, signal),
    // History does not change; a fresh answer asks again itself (see AutomationNote).
    staleTime: 60_000,
    retry: false,
  });

/** The window the workflow cards count firings over (the route's default). */
export const STATS_DAYS = 30;

/** GET /workflows/stats?days=: how often each workflow fired (analytics); the cards show the count. */
export const getWorkflowStats = (signal?: AbortSignal) =>
  api.get(`/workflows/stats?days=${STATS_DAYS}`, WorkflowStatsSchema, { signal });
export const workflowStatsQuery = () =>
  queryOptions({
    queryKey: ['automation', 'workflow-stats', STATS_DAYS],
    queryFn: ({ signal }) => getWorkflowStats(signal),
    retry: false,
  });
