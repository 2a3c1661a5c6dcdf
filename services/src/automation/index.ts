/**
 * The public entry of automation: guidelines, workflows and API actions as the assistant's tools. Other
 * modules, the facade and the composition roots import only this file (DESIGN.md §3, eslint.config.js).
 */
export { callAction, coerceInputs } from './action-call.js';
export { createBehaviourLoader, restrictToSources } from './assistant-behaviour.js';
export type { AssistantBehaviour, BehaviourLoader } from './assistant-behaviour.js';
export {
  KeptSecretMissing,
  actionFields,
  externalEndpoints,
  guidelineFields,
  secretContext,
  toActionDto,
  toExternalConfigDto,
  toGuidelineDto,
  toWorkflowDto,
  workflowFields,
} from './automation-mapper.js';
export { automationBlock, toolDefinition, toolName } from './automation-prompt.js';
export { applyBuiltinAutomation } from './builtin-automation.js';
export { createRunAutomation } from './run-automation.js';
export type { RunAutomation } from './run-automation.js';
export { createWorkflowIndexCache } from './workflow-index-cache.js';
export type { WorkflowCandidate } from './workflow-matcher.js';
