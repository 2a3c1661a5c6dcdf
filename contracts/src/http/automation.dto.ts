import { z } from 'zod';
import {
  ACTION_INPUT_TYPES,
  ACTION_METHODS,
  automationLimits as L,
  automationMessages as M,
  GUIDELINE_CATEGORIES,
  INPUT_NAME,
  parseTemplate,
  renderJsonTemplate,
  sampleInputValue,
  templateInputs,
} from '../rules/automation.js';

/**
 * HTTP shapes of workflows, guidelines and actions (spec part 2 §3, §7) and of an assistant's external API
 * configuration (part 1 §7). Lists answer a plain array; create and update answer the saved item; delete
 * answers `{ success, message }`. Errors answer `{ detail }` (errors.dto.ts) with the reason in English.
 */

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
};

const text = (max: number, field: string) => z.string().max(max, M.tooLong(field, max));
const requiredText = (max: number, field: string, required: string) =>
  z.string({ error: required }).trim().min(1, required).max(max, M.tooLong(field, max));

/** Ids of workflows, guidelines and actions: `wf_…`, `gl_…`, `act_…`. */
export const AutomationIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, 'Invalid id');
export const AutomationIdParamSchema = z.object({ id: AutomationIdSchema });

const LinkedActionsSchema = z
  .array(AutomationIdSchema)
  .max(L.linkedActions, M.tooMany('linked actions', L.linkedActions))
  .default([])
  .transform((ids) => [...new Set(ids)]);

// ───────────────────────────── Workflows ─────────────────────────────

/** §5: empty training phrases are removed before creating. */
const TrainingPhrasesSchema = z
  .array(text(L.phraseChars, 'A training phrase'))
  .max(L.phrasesPerWorkflow, M.tooMany('training phrases', L.phrasesPerWorkflow))
  .default([])
  .transform((phrases) => [...new Set(phrases.map((phrase) => phrase.trim()).filter(Boolean))]);

/** POST /workflows and PUT /workflows/{id} (whole workflow). */
export const WorkflowBodySchema = z.object({
  title: requiredText(L.titleChars, 'Title', M.titleRequired),
  trigger_condition: requiredText(L.triggerChars, 'Trigger condition', M.triggerRequired),
  training_phrases: TrainingPhrasesSchema,
  instructions: requiredText(L.instructionsChars, 'Instructions', M.instructionsRequired),
  linked_actions: LinkedActionsSchema,
});
export type WorkflowBody = z.infer<typeof WorkflowBodySchema>;
export type WorkflowBodyInput = z.input<typeof WorkflowBodySchema>;

export const WorkflowSchema = z.object({
  id: z.string(),
  title: z.string(),
  trigger_condition: z.string(),
  training_phrases: z.array(z.string()),
  instructions: z.string(),
  linked_actions: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WorkflowDto = z.infer<typeof WorkflowSchema>;
export const WorkflowListSchema = z.array(WorkflowSchema);

/** POST /workflows/match (beyond the spec): which workflow would fire for this message? */
export const WorkflowMatchBodySchema = z.object({
  message: requiredText(2_000, 'Message', 'Message is required'),
});
export const WorkflowMatchCandidateSchema = z.object({
  workflow_id: z.string(),
  title: z.string(),
  /** 0..1: how much of the best phrase (or the trigger condition) the message covers. */
  score: z.number(),
  matched_phrases: z.array(z.string()),
  /** Which text matched best: a training phrase or the trigger condition. */
  matched_on: z.enum(['phrase', 'trigger']),
});
export const WorkflowMatchResponseSchema = z.object({
  /** The workflow that fires (score at or above the threshold), else null. */
  fired: WorkflowMatchCandidateSchema.nullable(),
  threshold: z.number(),
  /** The best few candidates, fired or not, best first. */
  candidates: z.array(WorkflowMatchCandidateSchema),
  /** False when the message's commonest words were left out to keep the match within its budget of work. */
  complete: z.boolean().default(true),
});
export type WorkflowMatchResponse = z.infer<typeof WorkflowMatchResponseSchema>;

/** GET /workflows/overlaps (beyond the spec): training phrases that two workflows compete for. */
export const WorkflowOverlapSchema = z.object({
  workflow_id: z.string(),
  workflow_title: z.string(),
  other_workflow_id: z.string(),
  other_workflow_title: z.string(),
  /** A phrase of the first workflow that would fire the other (or both nearly equally). */
  phrase: z.string(),
  score: z.number(),
  other_score: z.number(),
});
export const WorkflowOverlapsResponseSchema = z.object({
  overlaps: z.array(WorkflowOverlapSchema),
  /**
   * False when the report is partial: a phrase was compared within its budget of work only (its words too
   * common among the workflows were left out), or the report stopped at its total budget.
   */
  complete: z.boolean().default(true),
  /** Training phrases compared, out of all of them. */
  checked_phrases: z.number().int().optional(),
  total_phrases: z.number().int().optional(),
});
export type WorkflowOverlapDto = z.infer<typeof WorkflowOverlapSchema>;

// ───────────────────────────── Guidelines ─────────────────────────────

export const GuidelineCategorySchema = z.enum(GUIDELINE_CATEGORIES, { error: M.categoryInvalid });
export type GuidelineCategory = z.infer<typeof GuidelineCategorySchema>;

/** POST /guidelines. */
export const GuidelineBodySchema = z.object({
  title: requiredText(L.titleChars, 'Title', M.titleRequired),
  category: GuidelineCategorySchema,
  instructions: requiredText(L.instructionsChars, 'Instructions', M.instructionsRequired),
  linked_actions: LinkedActionsSchema,
  active: z.boolean().default(true),
});
export type GuidelineBody = z.infer<typeof GuidelineBodySchema>;
export type GuidelineBodyInput = z.input<typeof GuidelineBodySchema>;

/** PUT /guidelines/{id}: the whole guideline, or only `active` when toggling (§7). */
export const GuidelineUpdateBodySchema = z.union([GuidelineBodySchema, z.object({ active: z.boolean() }).strict()]);
export type GuidelineUpdateBody = z.infer<typeof GuidelineUpdateBodySchema>;

export const GuidelineSchema = z.object({
  id: z.string(),
  title: z.string(),
  category: GuidelineCategorySchema,
  instructions: z.string(),
  linked_actions: z.array(z.string()),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GuidelineDto = z.infer<typeof GuidelineSchema>;
export const GuidelineListSchema = z.array(GuidelineSchema);

// ───────────────────────────── Actions ─────────────────────────────

export const ActionMethodSchema = z.enum(ACTION_METHODS);
export const ActionTypeSchema = z.enum(['api', 'knowledge_base']);
export const ActionInputTypeSchema = z.enum(ACTION_INPUT_TYPES);

export const ActionHeaderSchema = z.object({
  key: z.string().max(L.headerKeyChars),
  /** Secret headers (Authorization, *token*, *key*, …) read back masked: `********` + last 4; sent back as read, the stored secret is kept. */
  value: z.string().max(L.headerValueChars),
});
export const ActionInputSchema = z.object({
  name: z.string().trim().regex(INPUT_NAME, M.inputNameInvalid),
  /** §3: new inputs default to string and required. */
  type: ActionInputTypeSchema.default('string'),
  required: z.boolean().default(true),
  description: text(500, 'An input description').default(''),
});
export const KbSourceSchema = z.object({
  type: z.string().max(20).default('url'),
  name: z.string().max(2_048).optional(),
  url: z.string().trim().max(2_048).refine(isHttpUrl, M.endpointNotHttp),
});

const ActionFieldsSchema = z.object({
  title: requiredText(L.titleChars, 'Title', M.titleRequired),
  description: text(L.descriptionChars, 'Description').default(''),
  type: ActionTypeSchema.default('api'),
  api_endpoint: text(L.endpointChars, 'Endpoint URL').trim().default(''),
  api_method: ActionMethodSchema.default('GET'),
  /** §5: headers with an empty key or value are dropped. */
  api_headers: z
    .array(ActionHeaderSchema)
    .max(L.headers, M.tooMany('headers', L.headers))
    .default([])
    .transform((headers) =>
      headers.map((h) => ({ key: h.key.trim(), value: h.value })).filter((h) => h.key !== '' && h.value !== ''),
    ),
  api_body_template: text(L.bodyTemplateChars, 'Body template').default(''),
  api_inputs: z.array(ActionInputSchema).max(L.inputs, M.tooMany('inputs', L.inputs)).default([]),
  /** Beyond the spec: call one of the assistant's named external API endpoints; api_endpoint is then a path. */
  endpoint_name: z
    .string()
    .trim()
    .max(40)
    .nullable()
    .default(null)
    .transform((name) => (name ? name : null)),
  /** §3: URL sources have type url and name equal to the URL. */
  kb_sources: z
    .array(KbSourceSchema)
    .max(L.kbSources, M.tooMany('sources', L.kbSources))
    .default([])
    .transform((sources) => sources.map((s) => ({ type: s.type || 'url', name: s.name || s.url, url: s.url }))),
});

/** The checks a saved action must pass: templates parse, every placeholder is an input, the body is JSON. */
function checkAction(action: z.infer<typeof ActionFieldsSchema>, ctx: z.core.$RefinementCtx) {
  const issue = (message: string, path: (string | number)[]) => ctx.addIssue({ code: 'custom', message, path });
  if (action.type === 'knowledge_base') {
    if (action.kb_sources.length === 0) issue(M.kbSourcesRequired, ['kb_sources']);
    return;
  }
  const inputNames = new Set<string>();
  action.api_inputs.forEach((input, index) => {
    if (inputNames.has(input.name)) issue(M.duplicateInput(input.name), ['api_inputs', index, 'name']);
    inputNames.add(input.name);
  });
  if (action.endpoint_name !== null && !/^[A-Za-z0-9_-]{1,40}$/.test(action.endpoint_name))
    issue(M.endpointNameInvalid, ['endpoint_name']);
  const checkTemplate = (template: string, where: string, path: (string | number)[]) => {
    const names = templateInputs(template);
    if (names === null) return (issue(M.malformedTemplate(where), path), false);
    for (const name of names) if (!inputNames.has(name)) return (issue(M.unknownPlaceholder(where, name), path), false);
    return true;
  };
  if (!action.api_endpoint) issue(M.endpointRequired, ['api_endpoint']);
  else if (checkTemplate(action.api_endpoint, 'Endpoint URL', ['api_endpoint'])) {
    const sample = action.api_endpoint.replace(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/g, 'x');
    if (action.endpoint_name !== null) {
      if (!sample.startsWith('/')) issue(M.endpointPathRequired, ['api_endpoint']);
    } else if (!isHttpUrl(sample) || /\{\{/.test(action.api_endpoint.split('/').slice(0, 3).join('/'))) {
      // A placeholder in the scheme or host would let an input choose where the call goes.
      issue(M.endpointNotHttp, ['api_endpoint']);
    }
  }
  action.api_headers.forEach((header, index) => {
    if (!/^[A-Za-z0-9-]+$/.test(header.key)) issue(M.headerInvalid, ['api_headers', index, 'key']);
    checkTemplate(header.value, `Header ${header.key}`, ['api_headers', index, 'value']);
  });
  if (action.api_body_template.trim()) {
    if (action.api_method === 'GET') issue(M.bodyWithGet, ['api_body_template']);
    else if (checkTemplate(action.api_body_template, 'Body template', ['api_body_template'])) {
      const parts = parseTemplate(action.api_body_template)!;
      const samples = Object.fromEntries(action.api_inputs.map((input) => [input.name, sampleInputValue(input.type)]));
      try {
        JSON.parse(renderJsonTemplate(parts, samples));
      } catch {
        issue(M.bodyNotJson, ['api_body_template']);
      }
    }
  }
}

/** POST /actions and PUT /actions/{id} (fields as the action entity, §3). */
export const ActionBodySchema = ActionFieldsSchema.superRefine(checkAction);
export type ActionBody = z.infer<typeof ActionBodySchema>;
export type ActionBodyInput = z.input<typeof ActionBodySchema>;

export const ActionSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  type: ActionTypeSchema,
  api_endpoint: z.string(),
  api_method: ActionMethodSchema,
  api_headers: z.array(z.object({ key: z.string(), value: z.string() })),
  api_body_template: z.string(),
  api_inputs: z.array(
    z.object({ name: z.string(), type: ActionInputTypeSchema, required: z.boolean(), description: z.string() }),
  ),
  endpoint_name: z.string().nullable(),
  kb_sources: z.array(z.object({ type: z.string(), name: z.string(), url: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ActionDto = z.infer<typeof ActionSchema>;
export const ActionListSchema = z.array(ActionSchema);

/** POST /actions/{id}/test: §7 sends sample inputs (123 for number, true for boolean, "test_value" otherwise). */
export const ActionTestBodySchema = z.object({
  test_inputs: z
    .record(z.string().max(64), z.union([z.string().max(4_000), z.number(), z.boolean(), z.null()]))
    .default({}),
  /** Needed only when the action calls a named endpoint: whose external API configuration to use. */
  assistant_id: z.coerce.number().int().positive().optional(),
});
export type ActionTestBody = z.infer<typeof ActionTestBodySchema>;

/** The outcome of one call (action test, test-connection, a run's tool call). */
export const ActionCallResultSchema = z.object({
  success: z.boolean(),
  /** "Test successful!" or the reason it failed. */
  message: z.string(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number(),
  /** The parsed JSON response, or its text when it is not JSON; null when there was none. */
  response: z.unknown(),
  /** The request as sent (secret header values masked). */
  request: z
    .object({
      method: ActionMethodSchema,
      url: z.string(),
      headers: z.record(z.string(), z.string()),
      body: z.string().nullable(),
    })
    .nullable(),
});
export type ActionCallResultDto = z.infer<typeof ActionCallResultSchema>;

// ───────────────────────────── External API configuration ─────────────────────────────

export const ExternalEndpointNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, M.endpointNameInvalid);

export const ExternalEndpointBodySchema = z.object({
  name: ExternalEndpointNameSchema,
  base_url: z.string().trim().max(L.endpointChars).refine(isHttpUrl, M.endpointNotHttp),
  /** The auth header's name, e.g. Authorization or X-Api-Key; empty for none. */
  auth_header_name: z
    .string()
    .trim()
    .max(L.headerKeyChars)
    .regex(/^[A-Za-z0-9-]*$/, M.headerInvalid)
    .default(''),
  /** The secret: encrypted at rest, read back masked; sending the masked value back keeps the stored one. */
  auth_header_value: z.string().max(L.headerValueChars).default(''),
  timeout_ms: z.number().int().min(L.minEndpointTimeoutMs).max(L.maxEndpointTimeoutMs).default(L.actionTimeoutMs),
});

/** POST /external-api/assistants/{id}/config: the assistant's whole set of named endpoints. */
export const ExternalApiConfigBodySchema = z
  .object({
    endpoints: z
      .array(ExternalEndpointBodySchema)
      .max(L.externalEndpoints, M.tooMany('endpoints', L.externalEndpoints)),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.endpoints.forEach((endpoint, index) => {
      const key = endpoint.name.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          message: M.duplicateEndpointName(endpoint.name),
          path: ['endpoints', index, 'name'],
        });
      seen.add(key);
    });
  });
export type ExternalApiConfigBody = z.infer<typeof ExternalApiConfigBodySchema>;

export const ExternalEndpointSchema = z.object({
  name: z.string(),
  base_url: z.string(),
  auth_header_name: z.string(),
  /** Masked (`********` + last 4), or '' when none. */
  auth_header_value: z.string(),
  has_auth: z.boolean(),
  timeout_ms: z.number().int(),
});
export const ExternalApiConfigSchema = z.object({
  assistant_id: z.number().int(),
  endpoints: z.array(ExternalEndpointSchema),
  updated_at: z.string(),
});
export type ExternalApiConfigDto = z.infer<typeof ExternalApiConfigSchema>;

export const ExternalApiAssistantParamSchema = z.object({
  id: z.coerce
    .number({ error: 'Invalid assistant ID' })
    .int('Invalid assistant ID')
    .positive('Invalid assistant ID')
    .max(2_147_483_647, 'Invalid assistant ID'),
});
export const TestConnectionQuerySchema = z.object({ endpoint_name: ExternalEndpointNameSchema });
export const TestConnectionResponseSchema = ActionCallResultSchema.extend({ endpoint_name: z.string() });

export const AutomationDeletedResponseSchema = z.object({ success: z.literal(true), message: z.string() });

// ───────────────────────────── What ran, and the configuration then ─────────────────────────────

export const WorkflowFiringSchema = z.object({
  run_id: z.string(),
  workflow_id: z.string(),
  title: z.string(),
  score: z.number(),
  /** phrase / trigger: this message matched; continued: in force from an earlier message. */
  matched_on: z.string(),
  matched_phrases: z.array(z.string()),
  fired_at: z.string(),
});
export const ActionCallRecordSchema = z.object({
  call_id: z.string(),
  run_id: z.string(),
  action_id: z.string(),
  title: z.string(),
  success: z.boolean(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number(),
  error: z.string().nullable(),
  called_at: z.string(),
});

/** The owner's configuration as it stood at an instant (folded from the automation events up to it). */
export const AutomationConfigurationSchema = z.object({
  at: z.string(),
  workflows: z.array(WorkflowSchema.omit({ created_at: true, updated_at: true })),
  guidelines: z.array(GuidelineSchema.omit({ created_at: true, updated_at: true })),
  actions: z.array(ActionSchema.omit({ created_at: true, updated_at: true })),
});
export type AutomationConfigurationDto = z.infer<typeof AutomationConfigurationSchema>;
export const AutomationConfigurationQuerySchema = z.object({
  at: z.iso.datetime({ offset: true, error: 'at must be an ISO 8601 date-time' }).optional(),
});

/** GET /automation/conversations/{threadId}: which workflows fired and which actions ran in a conversation, and the configuration it was answered with. */
export const ConversationAutomationSchema = z.object({
  thread_id: z.string(),
  firings: z.array(WorkflowFiringSchema),
  action_calls: z.array(ActionCallRecordSchema),
  configuration: AutomationConfigurationSchema,
});
export type ConversationAutomationDto = z.infer<typeof ConversationAutomationSchema>;
export const ThreadIdParamSchema = z.object({
  threadId: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid thread id'),
});

/** GET /workflows/stats?days=: how often a visitor's message fired each workflow (turns it stayed in force are not counted) and how the actions fared (analytics). */
export const WorkflowStatsQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(365).default(30) });
export const WorkflowStatsSchema = z.object({
  days: z.number().int(),
  workflows: z.array(
    z.object({
      workflow_id: z.string(),
      title: z.string(),
      fired: z.number().int(),
      conversations: z.number().int(),
      last_fired_at: z.string().nullable(),
    }),
  ),
  actions: z.array(
    z.object({
      action_id: z.string(),
      title: z.string(),
      calls: z.number().int(),
      failed: z.number().int(),
      avg_duration_ms: z.number(),
    }),
  ),
});
export type WorkflowStatsDto = z.infer<typeof WorkflowStatsSchema>;
