import {
  ActionBodySchema,
  ActionCallResultSchema,
  ActionListSchema,
  ActionSchema,
  ActionTestBodySchema,
  AutomationDeletedResponseSchema,
  AutomationIdParamSchema,
  automationMessages as M,
  messages,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actionFields, callAction, coerceInputs, secretContext, toActionDto } from '../../../automation/index.js';
import { ApiError } from '../../api-error.js';
import {
  automationCommands,
  newAutomationId,
  savedItem,
  type AutomationRoutesDeps,
  type SavedResult,
} from '../workflows/automation-routes.deps.js';

/**
 * Spec part 2 §7 actions: GET, POST, PUT /{id}, DELETE /{id}, POST /{id}/test. Templates are checked when
 * saved (ActionBodySchema: placeholders must be inputs, the body must be JSON, the endpoint http(s));
 * secret header values are sealed and read back masked.
 */
export const actionRoutes =
  (deps: AutomationRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const automation = automationCommands(deps);
    const assistants = assistantQueries(deps.readDb);

    /** The saved action: as the read model has it, or as the command decided it when the read model is behind (savedItem). */
    const saved = async (ownerId: string, id: string, result: SavedResult) =>
      toActionDto(
        await savedItem({
          ownerId,
          id,
          result,
          decided: (state) => state.actions.get(id),
          read: () => automation.queries.action(ownerId, id),
          now: deps.clock,
          notFound: M.actionNotFound,
        }),
        deps.secrets,
      );

    app.get(
      '/actions',
      {
        schema: {
          summary: "The signed-in owner's actions, oldest first (secret header values masked)",
          response: { 200: ActionListSchema },
        },
      },
      async (request) =>
        (await automation.queries.actions(automation.owner(request))).map((action) =>
          toActionDto(action, deps.secrets),
        ),
    );

    app.post(
      '/actions',
      {
        schema: {
          summary: 'Create an action (API or knowledge base)',
          body: ActionBodySchema,
          response: { 200: ActionSchema },
        },
      },
      async (request) => {
        const actionId = newAutomationId('act');
        const result = await automation.run(request, (owner) => ({
          type: 'SaveAction',
          data: {
            ownerId: owner,
            actionId,
            action: actionFields(request.body, undefined, deps.secrets, owner),
            create: true,
          },
        }));
        return saved(result.ownerId, actionId, result);
      },
    );

    app.put(
      '/actions/:id',
      {
        schema: {
          summary: 'Replace an action; a secret header sent back masked keeps its stored value',
          params: AutomationIdParamSchema,
          body: ActionBodySchema,
          response: { 200: ActionSchema },
        },
      },
      async (request) => {
        const actionId = request.params.id;
        const ownerId = automation.owner(request);
        const previous = (await automation.decided(ownerId)).actions.get(actionId);
        if (!previous) throw new ApiError(404, M.actionNotFound);
        const result = await automation.run(request, (owner) => ({
          type: 'SaveAction',
          data: {
            ownerId: owner,
            actionId,
            action: actionFields(request.body, previous, deps.secrets, owner),
            create: false,
          },
        }));
        return saved(ownerId, actionId, result);
      },
    );

    app.delete(
      '/actions/:id',
      {
        schema: {
          summary: 'Delete an action (it is unlinked from every workflow and guideline)',
          params: AutomationIdParamSchema,
          response: { 200: AutomationDeletedResponseSchema },
        },
      },
      async (request) => {
        await automation.run(request, (ownerId) => ({
          type: 'DeleteAction',
          data: { ownerId, actionId: request.params.id },
        }));
        return { success: true as const, message: 'Action deleted' };
      },
    );

    app.post(
      '/actions/:id/test',
      {
        schema: {
          summary:
            'Run the action once with sample inputs (spec: 123 for number, true for boolean, "test_value" otherwise) through the same guards as runs. 200 with success false when the API failed (timeout, refused address, HTTP error, too large, not JSON); 422 for inputs that do not fit.',
          params: AutomationIdParamSchema,
          body: ActionTestBodySchema,
          response: { 200: ActionCallResultSchema },
        },
      },
      async (request) => {
        const ownerId = automation.owner(request);
        const action = await automation.queries.action(ownerId, request.params.id);
        if (!action) throw new ApiError(404, M.actionNotFound);
        const fields = action.fields;
        if (fields.type === 'knowledge_base') {
          return {
            success: true,
            message: M.testSuccessful,
            status_code: null,
            duration_ms: 0,
            response: { sources: fields.kbSources },
            request: null,
          };
        }
        const coerced = coerceInputs(fields, request.body.test_inputs);
        if ('error' in coerced) throw new ApiError(422, coerced.error);
        let endpoint = null;
        if (fields.endpointName) {
          if (request.body.assistant_id === undefined) throw new ApiError(422, M.endpointNameNeedsAssistant);
          const assistant = await assistants.findOwned(ownerId, request.body.assistant_id);
          if (!assistant) throw new ApiError(404, messages.assistantNotFound);
          const config = await automation.queries.externalApi(ownerId, assistant.id);
          endpoint = config?.endpoints.find((e) => e.name.toLowerCase() === fields.endpointName!.toLowerCase()) ?? null;
          if (!endpoint) throw new ApiError(422, M.unknownEndpointName(fields.endpointName));
        }
        const result = await callAction(
          { fetch: deps.fetch, open: (sealed) => deps.secrets.open(sealed, secretContext(ownerId)) },
          { action: fields, inputs: coerced.values, endpoint },
        );
        return {
          success: result.success,
          message: result.message,
          status_code: result.statusCode,
          duration_ms: result.durationMs,
          response: result.response,
          request: result.request,
        };
      },
    );
  };
