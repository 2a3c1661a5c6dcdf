import { WorkflowMatchResponseSchema, WorkflowOverlapsResponseSchema } from '@kesher/contracts';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /workflows/match (beyond the spec): which workflow would fire for this message, its score, the phrases. */
export const matchWorkflow = (message: string) =>
  api.post('/workflows/match', WorkflowMatchResponseSchema, { body: { message } });
export const useMatchWorkflow = () => useMutation({ mutationFn: matchWorkflow });

/**
 * GET /workflows/overlaps: training phrases two workflows compete for; refreshed with the workflows list. The
 * report may be partial (complete: false) when the owner's phrases are too many to compare within its budget.
 */
export const getWorkflowOverlaps = () => api.get('/workflows/overlaps', WorkflowOverlapsResponseSchema);
export const workflowOverlapsQuery = () =>
  queryOptions({ queryKey: ['automation', 'workflow-overlaps'], queryFn: getWorkflowOverlaps });
export const useWorkflowOverlaps = () => useQuery(workflowOverlapsQuery());
