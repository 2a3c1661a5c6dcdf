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
import { guidelineFields, toGuidelineDto } from '../../../automation/automation-mapper.js';
import { ApiError } from '../../api-error.js';
import { automationCommands, newAutomationId, type AutomationRoutesDeps } from '../workflows/automation-routes.deps.js';

/** Spec part 2 §7 guidelines: GET, POST, PUT /{id} (whole guideline, or only `active` when toggling), DELETE /{id}. */
export const guidelineRoutes =
  (deps: AutomationRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const automation = automationCommands(deps);

    /** The saved guideline as the read model has it; when it lags past the wait, as just saved (the write succeeded). */
    async function saved(ownerId: string, id: string, fields?: GuidelineFields) {
      const guideline = await automation.queries.guideline(ownerId, id);
      if (guideline) return toGuidelineDto(guideline);
      if (!fields) throw new ApiError(404, M.guidelineNotFound);
      const now = deps.clock().toISOString();
      return toGuidelineDto({ id, ownerId, fields, createdAt: now, updatedAt: now });
    }

    app.get('/guidelines', { schema: { summary: "The signed-in owner's guidelines, oldest first", response: { 200: GuidelineListSchema } } }, async (request) =>
      (await automation.queries.guidelines(automation.owner(request))).map(toGuidelineDto),
    );

    app.post(
      '/guidelines',
      { schema: { summary: 'Create a guideline (active by default); active guidelines shape every answer of the owner’s assistants', body: GuidelineBodySchema, response: { 200: GuidelineSchema } } },
      async (request) => {
        const guidelineId = newAutomationId('gl');
        const guideline = guidelineFields(request.body);
        const { ownerId } = await automation.run(request, (owner) => ({ type: 'SaveGuideline', data: { ownerId: owner, guidelineId, guideline, create: true } }));
        return saved(ownerId, guidelineId, guideline);
      },
    );

    app.put(
      '/guidelines/:id',
      { schema: { summary: 'Replace a guideline, or send only { active } to toggle it', params: AutomationIdParamSchema, body: GuidelineUpdateBodySchema, response: { 200: GuidelineSchema } } },
      async (request) => {
        const guidelineId = request.params.id;
        const ownerId = automation.owner(request);
        const body = request.body;
        let fields: GuidelineFields;
        if ('title' in body) fields = guidelineFields(body);
        else {
          const current = await automation.queries.guideline(ownerId, guidelineId);
          if (!current) throw new ApiError(404, M.guidelineNotFound);
          fields = { ...current.fields, active: body.active };
        }
        await automation.run(request, (owner) => ({ type: 'SaveGuideline', data: { ownerId: owner, guidelineId, guideline: fields, create: false } }));
        return saved(ownerId, guidelineId, fields);
      },
    );

    app.delete('/guidelines/:id', { schema: { summary: 'Delete a guideline', params: AutomationIdParamSchema, response: { 200: AutomationDeletedResponseSchema } } }, async (request) => {
      await automation.run(request, (ownerId) => ({ type: 'DeleteGuideline', data: { ownerId, guidelineId: request.params.id } }));
      return { success: true as const, message: 'Guideline deleted' };
    });
  };
