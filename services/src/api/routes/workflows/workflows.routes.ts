import {
  AutomationDeletedResponseSchema,
  AutomationIdParamSchema,
  automationMessages as M,
  WorkflowBodySchema,
  WorkflowListSchema,
  WorkflowMatchBodySchema,
  WorkflowMatchResponseSchema,
  WorkflowOverlapsResponseSchema,
  WorkflowSchema,
} from '@kesher/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createWorkflowIndexCache,
  toWorkflowDto,
  type WorkflowCandidate,
  workflowFields,
} from '../../../automation/index.js';
import { automationHistoryRoutes } from './automation-history.routes.js';
import {
  automationCommands,
  newAutomationId,
  savedItem,
  type AutomationRoutesDeps,
  type SavedResult,
} from './automation-routes.deps.js';

const candidateDto = (c: WorkflowCandidate) => ({
  workflow_id: c.workflowId,
  title: c.title,
  score: c.score,
  matched_phrases: c.matchedPhrases,
  matched_on: c.matchedOn,
});

/** Spec part 2 §7 workflows: GET, POST, PUT /{id} (whole workflow), DELETE /{id}; beyond it: /workflows/match and /workflows/overlaps. */
export const workflowRoutes =
  (deps: AutomationRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const automation = automationCommands(deps);
    // The tester and the overlap report: built in slices, once per configuration and owner, within a budget of work.
    const indexes = createWorkflowIndexCache();
    // What fired in a conversation, the configuration at an instant, per-workflow counts.
    await plain.register(automationHistoryRoutes(deps));

    /** The saved workflow: as the read model has it, or as the command decided it when the read model is behind (savedItem). */
    const saved = async (ownerId: string, id: string, result: SavedResult) =>
      toWorkflowDto(
        await savedItem({
          ownerId,
          id,
          result,
          decided: (state) => state.workflows.get(id),
          read: () => automation.queries.workflow(ownerId, id),
          now: deps.clock,
          notFound: M.workflowNotFound,
        }),
      );

    app.get(
      '/workflows',
      { schema: { summary: "The signed-in owner's workflows, oldest first", response: { 200: WorkflowListSchema } } },
      async (request) => (await automation.queries.workflows(automation.owner(request))).map(toWorkflowDto),
    );

    app.post(
      '/workflows',
      {
        schema: {
          summary: 'Create a workflow (empty training phrases are dropped; linked actions must be the owner’s)',
          body: WorkflowBodySchema,
          response: { 200: WorkflowSchema },
        },
      },
      async (request) => {
        const workflowId = newAutomationId('wf');
        const workflow = workflowFields(request.body);
        const result = await automation.run(request, (owner) => ({
          type: 'SaveWorkflow',
          data: { ownerId: owner, workflowId, workflow, create: true },
        }));
        return saved(result.ownerId, workflowId, result);
      },
    );

    app.put(
      '/workflows/:id',
      {
        schema: {
          summary: 'Replace a workflow (whole workflow)',
          params: AutomationIdParamSchema,
          body: WorkflowBodySchema,
          response: { 200: WorkflowSchema },
        },
      },
      async (request) => {
        const workflowId = request.params.id;
        const workflow = workflowFields(request.body);
        const result = await automation.run(request, (owner) => ({
          type: 'SaveWorkflow',
          data: { ownerId: owner, workflowId, workflow, create: false },
        }));
        return saved(result.ownerId, workflowId, result);
      },
    );

    app.delete(
      '/workflows/:id',
      {
        schema: {
          summary: 'Delete a workflow',
          params: AutomationIdParamSchema,
          response: { 200: AutomationDeletedResponseSchema },
        },
      },
      async (request) => {
        await automation.run(request, (ownerId) => ({
          type: 'DeleteWorkflow',
          data: { ownerId, workflowId: request.params.id },
        }));
        return { success: true as const, message: 'Workflow deleted' };
      },
    );

    app.post(
      '/workflows/match',
      {
        schema: {
          summary:
            'Which workflow would fire for this message: the workflow, its score (0..1), the phrases that matched, and the best candidates',
          body: WorkflowMatchBodySchema,
          response: { 200: WorkflowMatchResponseSchema },
        },
      },
      async (request) => {
        const ownerId = automation.owner(request);
        const match = (await indexes.index(ownerId, await automation.queries.workflows(ownerId))).match(
          request.body.message,
        );
        return {
          fired: match.fired ? candidateDto(match.fired) : null,
          threshold: match.threshold,
          candidates: match.candidates.map(candidateDto),
          complete: match.complete,
        };
      },
    );

    app.get(
      '/workflows/overlaps',
      {
        schema: {
          summary:
            "Training phrases that fire another of the owner's workflows (or nearly): phrases to make more specific",
          response: { 200: WorkflowOverlapsResponseSchema },
        },
      },
      async (request) => {
        const ownerId = automation.owner(request);
        const report = await indexes.overlaps(ownerId, await automation.queries.workflows(ownerId));
        return {
          complete: report.complete,
          checked_phrases: report.checked,
          total_phrases: report.phrases,
          overlaps: report.overlaps.map((o) => ({
            workflow_id: o.workflowId,
            workflow_title: o.workflowTitle,
            other_workflow_id: o.otherWorkflowId,
            other_workflow_title: o.otherWorkflowTitle,
            phrase: o.phrase,
            score: o.score,
            other_score: o.otherScore,
          })),
        };
      },
    );
  };
