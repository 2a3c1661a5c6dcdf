import {
  AutomationConfigurationQuerySchema,
  AutomationConfigurationSchema,
  ConversationAutomationSchema,
  streamIds,
  threadMessages,
  ThreadIdParamSchema,
  WorkflowStatsQuerySchema,
  WorkflowStatsSchema,
  type RecordedEvent,
} from '@kesher/contracts';
import { threadQueries } from '@kesher/projections/threads/threads.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { toActionDto, toGuidelineDto, toWorkflowDto } from '../../../automation/index.js';
import { automationDecider, type AutomationEvent } from '../../../domain/automation/automation.decider.js';
import { ApiError } from '../../api-error.js';
import { automationCommands, type AutomationRoutesDeps } from './automation-routes.deps.js';

const DAY_MS = 86_400_000;

/**
 * What automation did and what it was: the workflows that fired and the actions called in one
 * conversation with the configuration it was answered with, the configuration at any instant, and
 * per-workflow counts for analytics. The configuration at an instant is the owner's automation stream
 * folded up to it — every change is an event, so nothing is lost to later edits.
 */
export const automationHistoryRoutes =
  (deps: AutomationRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const automation = automationCommands(deps);
    const threads = threadQueries(deps.readDb);

    async function configurationAt(ownerId: string, at: Date) {
      const events = (await deps.eventStore.readStream(streamIds.automation(ownerId))).filter(
        (event: RecordedEvent) =>
          (automationDecider.eventTypes as readonly string[]).includes(event.type) &&
          Date.parse(event.metadata.timestamp) <= at.getTime(),
      );
      const state = (events as unknown as AutomationEvent[]).reduce(
        automationDecider.evolve,
        automationDecider.initialState(),
      );
      const stamp = at.toISOString();
      const saved = <F>(id: string, fields: F) => ({ id, ownerId, fields, createdAt: stamp, updatedAt: stamp });
      const strip = <T extends { created_at: string; updated_at: string }>({
        created_at: _c,
        updated_at: _u,
        ...rest
      }: T) => rest;
      return {
        at: stamp,
        workflows: [...state.workflows].map(([id, fields]) => strip(toWorkflowDto(saved(id, fields)))),
        guidelines: [...state.guidelines].map(([id, fields]) => strip(toGuidelineDto(saved(id, fields)))),
        actions: [...state.actions].map(([id, fields]) => strip(toActionDto(saved(id, fields), deps.secrets))),
      };
    }

    app.get(
      '/automation/configuration',
      {
        schema: {
          summary:
            "The owner's workflows, guidelines and actions as they stood at an instant (default now), folded from their change events",
          querystring: AutomationConfigurationQuerySchema,
          response: { 200: AutomationConfigurationSchema },
        },
      },
      async (request) =>
        configurationAt(automation.owner(request), request.query.at ? new Date(request.query.at) : deps.clock()),
    );

    app.get(
      '/automation/conversations/:threadId',
      {
        schema: {
          summary:
            'Which workflows fired (and why) and which actions ran in a conversation of one of the owner’s assistants, with the configuration as it stood at its last message',
          params: ThreadIdParamSchema,
          response: { 200: ConversationAutomationSchema },
        },
      },
      async (request) => {
        const ownerId = automation.owner(request);
        const thread = await threads.thread({ ownerId }, request.params.threadId);
        if (!thread) throw new ApiError(404, threadMessages.notFound);
        const [firings, calls, stream] = await Promise.all([
          automation.queries.firings(thread.id),
          automation.queries.actionCalls(thread.id),
          deps.eventStore.readStream(streamIds.thread(thread.id)),
        ]);
        // The instant of the conversation's last message, to the millisecond (the read model keeps seconds).
        const lastMessage = stream.filter((event) => event.type === 'MessagePosted').at(-1) ?? stream.at(-1);
        const lastAt = lastMessage ? new Date(lastMessage.metadata.timestamp) : deps.clock();
        return {
          thread_id: thread.id,
          firings: firings.map((f) => ({
            run_id: f.runId,
            workflow_id: f.workflowId,
            title: f.title,
            score: f.score,
            matched_on: f.matchedOn,
            matched_phrases: f.matchedPhrases,
            fired_at: f.firedAt,
          })),
          action_calls: calls.map((c) => ({
            call_id: c.callId,
            run_id: c.runId,
            action_id: c.actionId,
            title: c.title,
            success: c.success,
            status_code: c.statusCode,
            duration_ms: c.durationMs,
            error: c.error,
            called_at: c.calledAt,
          })),
          configuration: await configurationAt(ownerId, lastAt),
        };
      },
    );

    app.get(
      '/workflows/stats',
      {
        schema: {
          summary:
            'How often each workflow fired, in how many conversations, and how each action’s calls fared, over the last days',
          querystring: WorkflowStatsQuerySchema,
          response: { 200: WorkflowStatsSchema },
        },
      },
      async (request) => {
        const since = new Date(deps.clock().getTime() - request.query.days * DAY_MS);
        const stats = await automation.queries.stats(automation.owner(request), since);
        return {
          days: request.query.days,
          workflows: stats.workflows.map((w) => ({
            workflow_id: w.workflowId,
            title: w.title,
            fired: w.fired,
            conversations: w.conversations,
            last_fired_at: w.lastFiredAt,
          })),
          actions: stats.actions.map((a) => ({
            action_id: a.actionId,
            title: a.title,
            calls: a.calls,
            failed: a.failed,
            avg_duration_ms: a.avgDurationMs,
          })),
        };
      },
    );
  };
