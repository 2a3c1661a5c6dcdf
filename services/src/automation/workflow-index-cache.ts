import type { WorkflowFields } from '@kesher/contracts';
import type { Saved } from '@kesher/projections/automation/automation.queries';
import {
  buildWorkflowIndex,
  findOverlaps,
  type MatchableWorkflow,
  type OverlapReport,
  type WorkflowIndex,
} from './workflow-matcher.js';

/**
 * Per owner, the index of their workflows and their overlap report, kept until the workflows change (the
 * signature is their ids and update times). One build serves every request that asks meanwhile: an
 * owner who sends the tester or the overlap report ten times at once costs one computation, not ten.
 */
export interface WorkflowIndexCache {
  index(ownerId: string, workflows: readonly Saved<WorkflowFields>[]): Promise<WorkflowIndex>;
  overlaps(ownerId: string, workflows: readonly Saved<WorkflowFields>[]): Promise<OverlapReport>;
}

/** Owners kept at once; the oldest entry makes room. */
const MAX_OWNERS = 1_000;

export const matchableWorkflow = (saved: Saved<WorkflowFields>): MatchableWorkflow => ({
  id: saved.id,
  title: saved.fields.title,
  triggerCondition: saved.fields.triggerCondition,
  trainingPhrases: saved.fields.trainingPhrases,
});

export function createWorkflowIndexCache(): WorkflowIndexCache {
  function memo<T>(compute: (ownerId: string, workflows: readonly Saved<WorkflowFields>[]) => Promise<T>) {
    const entries = new Map<string, { signature: string; value: Promise<T> }>();
    return (ownerId: string, workflows: readonly Saved<WorkflowFields>[]): Promise<T> => {
      const signature = workflows.map((w) => `${w.id}@${w.updatedAt}`).join('|');
      const cached = entries.get(ownerId);
      if (cached?.signature === signature) return cached.value;
      const value = compute(ownerId, workflows);
      // A failed computation is not kept: the next request tries again.
      value.catch(() => entries.get(ownerId)?.value === value && entries.delete(ownerId));
      entries.delete(ownerId);
      if (entries.size >= MAX_OWNERS) entries.delete(entries.keys().next().value!);
      entries.set(ownerId, { signature, value });
      return value;
    };
  }
  const index = memo((_ownerId, workflows) => buildWorkflowIndex(workflows.map(matchableWorkflow)));
  const overlaps = memo(async (ownerId, workflows) =>
    findOverlaps(workflows.map(matchableWorkflow), { index: await index(ownerId, workflows) }),
  );
  return { index, overlaps };
}
