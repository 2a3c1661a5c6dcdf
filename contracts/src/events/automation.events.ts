import { z } from 'zod';
import { ACTION_INPUT_TYPES, ACTION_METHODS, GUIDELINE_CATEGORIES } from '../rules/automation.js';

/**
 * An owner's workflows, guidelines and actions, and each assistant's external API endpoints (stream
 * `automation-<ownerId>`). Every change is a whole-item fact (created/updated carry the item as saved), so
 * folding the stream up to any instant gives the configuration an assistant answered with then. Secrets
 * (secret header values, endpoint auth values) are stored sealed (platform/secrets), never in clear.
 */
const Id = z.string().min(1);

export const WorkflowFieldsSchema = z.object({
  title: z.string(),
  triggerCondition: z.string(),
  trainingPhrases: z.array(z.string()),
  instructions: z.string(),
  linkedActions: z.array(Id),
});
export type WorkflowFields = z.infer<typeof WorkflowFieldsSchema>;

export const GuidelineFieldsSchema = z.object({
  title: z.string(),
  category: z.enum(GUIDELINE_CATEGORIES),
  instructions: z.string(),
  linkedActions: z.array(Id),
  active: z.boolean(),
});
export type GuidelineFields = z.infer<typeof GuidelineFieldsSchema>;

/** A header as stored: a secret one holds its value sealed. */
export const StoredHeaderSchema = z.object({ key: z.string(), value: z.string(), sealed: z.boolean() });
export type StoredHeader = z.infer<typeof StoredHeaderSchema>;

export const ActionFieldsSchema = z.object({
  title: z.string(),
  description: z.string(),
  type: z.enum(['api', 'knowledge_base']),
  apiEndpoint: z.string(),
  apiMethod: z.enum(ACTION_METHODS),
  apiHeaders: z.array(StoredHeaderSchema),
  apiBodyTemplate: z.string(),
  apiInputs: z.array(
    z.object({ name: z.string(), type: z.enum(ACTION_INPUT_TYPES), required: z.boolean(), description: z.string() }),
  ),
  endpointName: z.string().nullable(),
  kbSources: z.array(z.object({ type: z.string(), name: z.string(), url: z.string() })),
});
export type ActionFields = z.infer<typeof ActionFieldsSchema>;

export const WorkflowCreatedSchema = z.object({ ownerId: Id, workflowId: Id, workflow: WorkflowFieldsSchema });
export const WorkflowUpdatedSchema = WorkflowCreatedSchema;
export const WorkflowDeletedSchema = z.object({ ownerId: Id, workflowId: Id });
export const GuidelineCreatedSchema = z.object({ ownerId: Id, guidelineId: Id, guideline: GuidelineFieldsSchema });
export const GuidelineUpdatedSchema = GuidelineCreatedSchema;
export const GuidelineDeletedSchema = z.object({ ownerId: Id, guidelineId: Id });
export const ActionCreatedSchema = z.object({ ownerId: Id, actionId: Id, action: ActionFieldsSchema });
export const ActionUpdatedSchema = ActionCreatedSchema;
/** The action is gone, and with it every workflow's and guideline's link to it (listed, so readers need not fold). */
export const ActionDeletedSchema = z.object({ ownerId: Id, actionId: Id, unlinkedFrom: z.array(Id) });

export const ExternalEndpointStoredSchema = z.object({
  name: z.string(),
  baseUrl: z.string(),
  authHeaderName: z.string(),
  /** Sealed; null when the endpoint has no auth value. */
  authHeaderValueSealed: z.string().nullable(),
  timeoutMs: z.number().int().positive(),
});
export type ExternalEndpointStored = z.infer<typeof ExternalEndpointStoredSchema>;
export const ExternalApiConfiguredSchema = z.object({
  ownerId: Id,
  assistantId: Id,
  endpoints: z.array(ExternalEndpointStoredSchema),
});
export const ExternalApiConfigDeletedSchema = z.object({ ownerId: Id, assistantId: Id });

/**
 * On a thread's stream: a workflow fired for a visitor's message, and why. Its instructions hold from
 * this run on until `stepsDone` (the workflow's linked actions ran, or another workflow fired).
 */
export const WorkflowFiredSchema = z.object({
  threadId: Id,
  runId: Id,
  workflowId: Id,
  title: z.string(),
  score: z.number(),
  matchedOn: z.enum(['phrase', 'trigger', 'continued']),
  matchedPhrases: z.array(z.string()),
});
export type WorkflowFired = z.infer<typeof WorkflowFiredSchema>;

/** On a thread's stream: the run waits for actions (status requires_action) — the tool calls it asked for. */
export const RunActionsRequiredSchema = z.object({
  threadId: Id,
  runId: Id,
  calls: z.array(
    z.object({ callId: Id, actionId: Id, title: z.string(), arguments: z.record(z.string(), z.unknown()) }),
  ),
});
export type RunActionsRequired = z.infer<typeof RunActionsRequiredSchema>;

/** On a thread's stream: one action call of a run and its outcome (the run goes on to its answer). */
export const ActionCalledSchema = z.object({
  threadId: Id,
  runId: Id,
  callId: Id,
  actionId: Id,
  title: z.string(),
  success: z.boolean(),
  statusCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative(),
  /** Why it failed; null on success. */
  error: z.string().nullable(),
});
export type ActionCalled = z.infer<typeof ActionCalledSchema>;

export type WorkflowCreated = z.infer<typeof WorkflowCreatedSchema>;
export type WorkflowDeleted = z.infer<typeof WorkflowDeletedSchema>;
export type GuidelineCreated = z.infer<typeof GuidelineCreatedSchema>;
export type GuidelineDeleted = z.infer<typeof GuidelineDeletedSchema>;
export type ActionCreated = z.infer<typeof ActionCreatedSchema>;
export type ActionDeleted = z.infer<typeof ActionDeletedSchema>;
export type ExternalApiConfigured = z.infer<typeof ExternalApiConfiguredSchema>;
export type ExternalApiConfigDeleted = z.infer<typeof ExternalApiConfigDeletedSchema>;
