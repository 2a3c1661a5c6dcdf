import { streamIds, type Actor, type KesherEvent } from '@kesher/contracts';
import type { ToolCall, ToolResult } from '../chat/index.js';
import type { OutboundFetch } from '../outbound/index.js';
import { newEvents } from '../platform/commands/new-events.js';
import type { EventStore } from '../platform/event-store/event-store.port.js';
import type { SecretBox } from '../platform/secrets/secret-box.js';
import { callAction } from './action-call.js';
import type { AssistantBehaviour } from './assistant-behaviour.js';
import { secretContext } from './automation-mapper.js';

/**
 * A run's automation facts, recorded on its thread's stream beside the thread decider's own events (which
 * skips them): the workflow that fired and why, the actions the run waits for (status requires_action)
 * and each call's outcome. They are notes about a run, never a decision on the thread, so they append
 * without competing for the thread's revision.
 */
export interface RunAutomationDeps {
  eventStore: EventStore;
  secrets: SecretBox;
  /** The one guarded outbound fetch (the crawler's SSRF guard). */
  fetch: OutboundFetch;
  clock?: () => Date;
  /** A record that could not be written (the run goes on: a note about a run never costs the visitor the answer). */
  onError?: (error: unknown) => void;
}

export interface RunContext {
  threadId: string;
  runId: string;
  ownerId: string;
  correlationId: string;
  causationId?: string;
}

export function createRunAutomation(deps: RunAutomationDeps) {
  const clock = deps.clock ?? (() => new Date());
  const actor: Actor = { kind: 'system', id: 'ai-runner' };

  async function record(context: RunContext, events: readonly KesherEvent[]): Promise<void> {
    const at = { actor, correlationId: context.correlationId, now: clock() };
    await deps.eventStore.appendToStream(
      streamIds.thread(context.threadId),
      newEvents(events, at, context.causationId ?? context.correlationId),
      {
        expectedRevision: 'stream_exists',
      },
    );
  }

  const noted = (write: Promise<void>) => write.catch((error: unknown) => deps.onError?.(error));

  return {
    /** The workflow in force for this run, recorded (the conversation view and analytics read it). */
    async workflowFired(context: RunContext, behaviour: AssistantBehaviour) {
      const workflow = behaviour.workflow;
      if (!workflow) return;
      await noted(
        record(context, [
          {
            type: 'WorkflowFired',
            data: {
              threadId: context.threadId,
              runId: context.runId,
              workflowId: workflow.id,
              title: workflow.title,
              score: workflow.score,
              matchedOn: workflow.matchedOn,
              matchedPhrases: workflow.matchedPhrases,
            },
          },
        ]),
      );
    },

    /**
     * The provider's `runTools` for one run: records that the run requires actions, calls them at once
     * (each within its endpoint's timeout, through the SSRF guard), records each outcome, and answers
     * the results. An action that is not offered, or any failure, is a failed result — never a throw.
     */
    toolRunner(context: RunContext, behaviour: AssistantBehaviour, signal?: AbortSignal) {
      /** Outcomes still being recorded: the run's completion waits for them (settled), the model's next turn does not. */
      const pending = new Set<Promise<void>>();
      const track = (write: Promise<void>) => {
        pending.add(write);
        void write.finally(() => pending.delete(write));
      };
      const run = async (calls: readonly ToolCall[]): Promise<ToolResult[]> => {
        if (calls.length === 0) return [];
        const offered = new Map(behaviour.tools.map((tool) => [tool.id, tool]));
        for (const action of behaviour.workflow?.actions ?? []) offered.set(action.id, action);
        // Recorded while the calls are made (the run reads requires_action): the round trip does not wait for the write.
        const asked = calls.map((call) => ({
          callId: call.callId,
          actionId: call.actionId,
          title: offered.get(call.actionId)?.title ?? call.actionId,
          arguments: call.arguments,
        }));
        const required = noted(
          record(context, [
            { type: 'RunActionsRequired', data: { threadId: context.threadId, runId: context.runId, calls: asked } },
          ]),
        );
        const calling = Promise.all(
          calls.map(async (call): Promise<ToolResult> => {
            const action = offered.get(call.actionId);
            if (!action)
              return {
                callId: call.callId,
                actionId: call.actionId,
                title: call.actionId,
                success: false,
                message: 'This action is not available to the assistant.',
                statusCode: null,
                response: null,
              };
            const result = await callAction(
              { fetch: deps.fetch, open: (sealed) => deps.secrets.open(sealed, secretContext(context.ownerId)) },
              {
                action: action.fields,
                inputs: call.arguments,
                endpoint: action.endpoint,
                ...(signal ? { signal } : {}),
              },
            );
            return {
              callId: call.callId,
              actionId: action.id,
              title: action.title,
              success: result.success,
              message: result.message,
              statusCode: result.statusCode,
              response: result.response,
              durationMs: result.durationMs,
            };
          }),
        );
        const [results] = await Promise.all([calling, required]);
        const outcomes = results.map((result) => ({
          type: 'ActionCalled' as const,
          data: {
            threadId: context.threadId,
            runId: context.runId,
            callId: result.callId,
            actionId: result.actionId,
            title: result.title,
            success: result.success,
            statusCode: result.statusCode,
            durationMs: result.durationMs ?? 0,
            error: result.success ? null : result.message,
          },
        }));
        track(noted(record(context, outcomes)));
        return results;
      };
      return Object.assign(run, {
        /** Resolves once every call's outcome is recorded (or reported as not recorded). */
        settled: async () => {
          await Promise.all([...pending]);
        },
      });
    },
  };
}
export type RunAutomation = ReturnType<typeof createRunAutomation>;
