import {
  automationMessages as M,
  AutomationDeletedResponseSchema,
  ExternalApiAssistantParamSchema,
  ExternalApiConfigBodySchema,
  ExternalApiConfigSchema,
  messages,
  TestConnectionQuerySchema,
  TestConnectionResponseSchema,
  type ActionFields,
  type ExternalEndpointStored,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { callAction, externalEndpoints, secretContext, toExternalConfigDto } from '../../../automation/index.js';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { automationCommands, type AutomationRoutesDeps } from '../workflows/automation-routes.deps.js';

/** A GET of the endpoint's base URL: what test-connection sends (through the actions' guards). */
const probe = (name: string): ActionFields => ({
  title: `test-connection ${name}`,
  description: '',
  type: 'api',
  apiEndpoint: '',
  apiMethod: 'GET',
  apiHeaders: [],
  apiBodyTemplate: '',
  apiInputs: [],
  endpointName: name,
  kbSources: [],
});

/**
 * Spec part 1 §7 external API: POST, GET, DELETE /external-api/assistants/{id}/config and GET
 * /external-api/assistants/{id}/test-connection?endpoint_name=. The configuration is the assistant's set of
 * named endpoints (base URL, auth header, timeout) its API actions call by name (`endpoint_name`).
 */
export const externalApiRoutes =
  (deps: AutomationRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const automation = automationCommands(deps);
    const assistants = assistantQueries(deps.readDb);

    async function ownedAssistant(request: FastifyRequest, numericId: number) {
      const account = requireAccount(request);
      const row = await assistants.findOwned(account.id, numericId);
      // Another owner's assistant answers exactly like a missing one.
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return { ownerId: account.id, row };
    }

    async function current(ownerId: string, assistantId: string, numericId: number) {
      const config = await automation.queries.externalApi(ownerId, assistantId);
      if (!config) throw new ApiError(404, M.externalConfigNotFound);
      return toExternalConfigDto(numericId, ownerId, config, deps.secrets);
    }

    app.post(
      '/external-api/assistants/:id/config',
      {
        schema: {
          summary:
            "Set the assistant's named external API endpoints (replaces the set). Auth values are encrypted at rest and read back masked; a masked value sent back keeps the stored one.",
          params: ExternalApiAssistantParamSchema,
          body: ExternalApiConfigBodySchema,
          response: { 200: ExternalApiConfigSchema },
        },
      },
      async (request) => {
        const { ownerId, row } = await ownedAssistant(request, request.params.id);
        const previous = await automation.queries.externalApi(ownerId, row.id);
        let endpoints: ExternalEndpointStored[] = [];
        await automation.run(request, (owner) => ({
          type: 'ConfigureExternalApi',
          data: {
            ownerId: owner,
            assistantId: row.id,
            endpoints: (endpoints = externalEndpoints(request.body, previous?.endpoints, deps.secrets, owner)),
          },
        }));
        // As just saved when the read model lags past the wait (the write succeeded).
        const saved = await automation.queries.externalApi(ownerId, row.id);
        return toExternalConfigDto(
          row.numeric_id,
          ownerId,
          saved ?? { endpoints, updatedAt: deps.clock().toISOString() },
          deps.secrets,
        );
      },
    );

    app.get(
      '/external-api/assistants/:id/config',
      {
        schema: {
          summary: "The assistant's external API endpoints (auth values masked)",
          params: ExternalApiAssistantParamSchema,
          response: { 200: ExternalApiConfigSchema },
        },
      },
      async (request) => {
        const { ownerId, row } = await ownedAssistant(request, request.params.id);
        return current(ownerId, row.id, row.numeric_id);
      },
    );

    app.delete(
      '/external-api/assistants/:id/config',
      {
        schema: {
          summary: "Remove the assistant's external API configuration",
          params: ExternalApiAssistantParamSchema,
          response: { 200: AutomationDeletedResponseSchema },
        },
      },
      async (request) => {
        const { row } = await ownedAssistant(request, request.params.id);
        await automation.run(request, (ownerId) => ({
          type: 'DeleteExternalApiConfig',
          data: { ownerId, assistantId: row.id },
        }));
        return { success: true as const, message: 'External API configuration deleted' };
      },
    );

    app.get(
      '/external-api/assistants/:id/test-connection',
      {
        schema: {
          summary:
            "Probe one named endpoint (a GET of its base URL with its auth header) through the actions' guards: SSRF refusal, timeout, size cap",
          params: ExternalApiAssistantParamSchema,
          querystring: TestConnectionQuerySchema,
          response: { 200: TestConnectionResponseSchema },
        },
      },
      async (request) => {
        const { ownerId, row } = await ownedAssistant(request, request.params.id);
        const name = request.query.endpoint_name;
        const config = await automation.queries.externalApi(ownerId, row.id);
        const endpoint = config?.endpoints.find((e) => e.name.toLowerCase() === name.toLowerCase());
        if (!endpoint) throw new ApiError(404, M.unknownEndpointName(name));
        const result = await callAction(
          { fetch: deps.fetch, open: (sealed) => deps.secrets.open(sealed, secretContext(ownerId)) },
          { action: probe(endpoint.name), inputs: {}, endpoint },
        );
        // The probe only asks whether the endpoint answers: any HTTP answer below 500 means it is reachable.
        const reachable = result.statusCode !== null && result.statusCode < 500;
        return {
          endpoint_name: endpoint.name,
          success: reachable,
          message: reachable ? M.testSuccessful : result.message,
          status_code: result.statusCode,
          duration_ms: result.durationMs,
          response: result.response,
          request: result.request,
        };
      },
    );
  };
