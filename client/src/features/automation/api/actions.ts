import { type ActionBodyInput, type ActionDto, ActionListSchema, ActionSchema } from '@kesher/contracts';
import { automationResource } from './automation-resource';

/** GET, POST /actions; PUT, DELETE /actions/{id} (spec part 2 §7). */
export const actions = automationResource<ActionDto, ActionBodyInput>('/actions', ActionSchema, ActionListSchema);
