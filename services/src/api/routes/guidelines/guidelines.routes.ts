import {
  AutomationDeletedResponseSchema,
  AutomationIdParamSchema,
  automationMessages as M,
  GuidelineBodySchema,
  GuidelineListSchema,
  GuidelineSchema,
  GuidelineUpdateBodySchema,
  type GuidelineFields,
} from '@kesher/contracts';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { guidelineFields, toGuidelineDto } from '../../../automation/index.js';
import { ApiError } from '../../api-error.js';
import {
  automationCommands,
  newAutomationId,
  savedItem,
  type AutomationRoutesDeps,
  type SavedResult,
} from '../workflows/automation-routes.deps.js';

/** Spec part 2 §7 guidelines: GET, POST, PUT /{id} (whole guideline, or only `active` when toggling), DELETE /{id}. */
export const guidelineRoutes =
  (deps: AutomationRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const automation = automationCommands(deps);

    /** The saved guideline: as the read model has it, or as the command decided it when the read model is behind (savedItem). */
    const saved = async (ownerId: string, id: string, result: SavedResult) =>
      toGuidelineDto(
        await savedItem({
          ownerId,
          id,
          result,
          decided: (state) => state.guidelines.get(id),
          read: () => automation.queries.guideline(ownerId, id),
          now: deps.clock,
          notFound: M.guidelineNotFound,
        }),
      );

    app.get(
      '/guidelines',
      { schema: { summary: "The signed-in owner's guidelines, oldest first", response: { 200: GuidelineListSchema } } },
      async (request) => (await automation.queries.guidelines(automation.owner(request))).map(toGuidelineDto),
    );

    app.post(
      '/guidelines',
      {
        schema: {
          summary:
            'Create a guideline (active by default); active guidelines shape every answer of the owner’s assistants',
          body: GuidelineBodySchema,
          response: { 200: GuidelineSchema },
        },
      },
      async (request) => {
        const guidelineId = newAutomationId('gl');
        const guideline = guidelineFields(request.body);
        const result = await automation.run(request, (owner) => ({
          type: 'SaveGuideline',
          data: { ownerId: owner, guidelineId, guideline, create: true },
        }));
        return saved(result.ownerId, guidelineId, result);
      },
    );

    app.put(
      '/guidelines/:id',
      {
        schema: {
          summary: 'Replace a guideline, or send only { active } to toggle it',
          params: AutomationIdParamSchema,
          body: GuidelineUpdateBodySchema,
          response: { 200: GuidelineSchema },
        },
      },
      async (request) => {
        const guidelineId = request.params.id;
        const ownerId = automation.owner(request);
        const body = request.body;
        let fields: GuidelineFields;
        if ('title' in body) fields = guidelineFields(body);
        else {
          const current = (await automation.decided(ownerId)).guidelines.get(guidelineId);
          if (!current) throw new ApiError(404, M.guidelineNotFound);
          fields = { ...current, active: body.active };
        }
        const result = await automation.run(request, (owner) => ({
          type: 'SaveGuideline',
          data: { ownerId: owner, guidelineId, guideline: fields, create: false },
        }));
        return saved(ownerId, guidelineId, result);
      },
    );

    app.delete(
      '/guidelines/:id',
      {
        schema: {
          summary: 'Delete a guideline',
          params: AutomationIdParamSchema,
          response: { 200: AutomationDeletedResponseSchema },
        },
      },
      async (request) => {
        await automation.run(request, (ownerId) => ({
          type: 'DeleteGuideline',
          data: { ownerId, guidelineId: request.params.id },
        }));
        return { success: true as const, message: 'Guideline deleted' };
      },
    );
  };
