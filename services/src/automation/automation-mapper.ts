import {
  isMaskedSecret,
  isSecretHeaderName,
  streamIds,
  type ActionBody,
  type ActionDto,
  type ActionFields,
  type ExternalApiConfigBody,
  type ExternalApiConfigDto,
  type ExternalEndpointStored,
  type GuidelineBody,
  type GuidelineDto,
  type GuidelineFields,
  type StoredHeader,
  type WorkflowBody,
  type WorkflowDto,
  type WorkflowFields,
} from '@kesher/contracts';
import type { Saved } from '@kesher/projections/automation/automation.queries';
import { maskSecret, type SecretBox } from '../platform/secrets/secret-box.js';

/**
 * Between the API's shapes (snake_case, secrets masked) and the stored facts (camelCase, secrets sealed
 * under the owner's stream as context, so a sealed value copied to another owner's record does not open).
 */
export const secretContext = (ownerId: string) => streamIds.automation(ownerId);

export class KeptSecretMissing extends Error {
  constructor(readonly where: string) {
    super(`${where}: a masked value was sent but no secret is stored for it — type the value again`);
    this.name = 'KeptSecretMissing';
  }
}

export const workflowFields = (body: WorkflowBody): WorkflowFields => ({
  title: body.title,
  triggerCondition: body.trigger_condition,
  trainingPhrases: body.training_phrases,
  instructions: body.instructions,
  linkedActions: body.linked_actions,
});

export const toWorkflowDto = (saved: Saved<WorkflowFields>): WorkflowDto => ({
  id: saved.id,
  title: saved.fields.title,
  trigger_condition: saved.fields.triggerCondition,
  training_phrases: saved.fields.trainingPhrases,
  instructions: saved.fields.instructions,
  linked_actions: saved.fields.linkedActions,
  created_at: saved.createdAt,
  updated_at: saved.updatedAt,
});

export const guidelineFields = (body: GuidelineBody): GuidelineFields => ({
  title: body.title,
  category: body.category,
  instructions: body.instructions,
  linkedActions: body.linked_actions,
  active: body.active,
});

export const toGuidelineDto = (saved: Saved<GuidelineFields>): GuidelineDto => ({
  id: saved.id,
  title: saved.fields.title,
  category: saved.fields.category,
  instructions: saved.fields.instructions,
  linked_actions: saved.fields.linkedActions,
  active: saved.fields.active,
  created_at: saved.createdAt,
  updated_at: saved.updatedAt,
});

/** A stored secret as read back: masked, or the bare mask when it cannot be opened (key changed). */
function masked(secrets: SecretBox, ownerId: string, sealed: string): string {
  try {
    return maskSecret(secrets.open(sealed, secretContext(ownerId)));
  } catch {
    return maskSecret('');
  }
}

/**
 * An action's fields as stored. Secret headers are sealed; a header sent back masked (as it was read)
 * keeps the secret already stored under that name.
 */
export function actionFields(
  body: ActionBody,
  previous: ActionFields | undefined,
  secrets: SecretBox,
  ownerId: string,
): ActionFields {
  const headers: StoredHeader[] = body.api_headers.map(({ key, value }) => {
    if (isMaskedSecret(value)) {
      const kept = previous?.apiHeaders.find(
        (header) => header.key.toLowerCase() === key.toLowerCase() && header.sealed,
      );
      if (!kept) throw new KeptSecretMissing(`Header ${key}`);
      return { key, value: kept.value, sealed: true };
    }
    return isSecretHeaderName(key)
      ? { key, value: secrets.seal(value, secretContext(ownerId)), sealed: true }
      : { key, value, sealed: false };
  });
  const api = body.type === 'api';
  return {
    title: body.title,
    description: body.description,
    type: body.type,
    apiEndpoint: api ? body.api_endpoint : '',
    apiMethod: body.api_method,
    apiHeaders: api ? headers : [],
    apiBodyTemplate: api && body.api_method !== 'GET' ? body.api_body_template : '',
    apiInputs: api ? body.api_inputs : [],
    endpointName: api ? body.endpoint_name : null,
    kbSources: api
      ? []
      : body.kb_sources.map((source) => ({ type: source.type, name: source.name ?? source.url, url: source.url })),
  };
}

export const toActionDto = (saved: Saved<ActionFields>, secrets: SecretBox): ActionDto => ({
  id: saved.id,
  title: saved.fields.title,
  description: saved.fields.description,
  type: saved.fields.type,
  api_endpoint: saved.fields.apiEndpoint,
  api_method: saved.fields.apiMethod,
  api_headers: saved.fields.apiHeaders.map((header) => ({
    key: header.key,
    value: header.sealed ? masked(secrets, saved.ownerId, header.value) : header.value,
  })),
  api_body_template: saved.fields.apiBodyTemplate,
  api_inputs: saved.fields.apiInputs,
  endpoint_name: saved.fields.endpointName,
  kb_sources: saved.fields.kbSources,
  created_at: saved.createdAt,
  updated_at: saved.updatedAt,
});

export function externalEndpoints(
  body: ExternalApiConfigBody,
  previous: readonly ExternalEndpointStored[] | undefined,
  secrets: SecretBox,
  ownerId: string,
): ExternalEndpointStored[] {
  return body.endpoints.map((endpoint) => {
    let sealed: string | null = null;
    if (endpoint.auth_header_value !== '') {
      if (isMaskedSecret(endpoint.auth_header_value)) {
        const kept = previous?.find((p) => p.name.toLowerCase() === endpoint.name.toLowerCase())?.authHeaderValueSealed;
        if (!kept) throw new KeptSecretMissing(`Endpoint ${endpoint.name}`);
        sealed = kept;
      } else sealed = secrets.seal(endpoint.auth_header_value, secretContext(ownerId));
    }
    return {
      name: endpoint.name,
      baseUrl: endpoint.base_url,
      authHeaderName: endpoint.auth_header_name,
      authHeaderValueSealed: sealed,
      timeoutMs: endpoint.timeout_ms,
    };
  });
}

export const toExternalConfigDto = (
  assistantNumericId: number,
  ownerId: string,
  config: { endpoints: ExternalEndpointStored[]; updatedAt: string },
  secrets: SecretBox,
): ExternalApiConfigDto => ({
  assistant_id: assistantNumericId,
  endpoints: config.endpoints.map((endpoint) => ({
    name: endpoint.name,
    base_url: endpoint.baseUrl,
    auth_header_name: endpoint.authHeaderName,
    auth_header_value: endpoint.authHeaderValueSealed ? masked(secrets, ownerId, endpoint.authHeaderValueSealed) : '',
    has_auth: endpoint.authHeaderValueSealed !== null,
    timeout_ms: endpoint.timeoutMs,
  })),
  updated_at: config.updatedAt,
});
