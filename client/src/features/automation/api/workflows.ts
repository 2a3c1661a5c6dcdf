import { type WorkflowBodyInput, type WorkflowDto, WorkflowListSchema, WorkflowSchema } from '@kesher/contracts';
import { automationResource } from './automation-resource';

/** GET, POST /workflows; PUT, DELETE /workflows/{id} (spec part 2 §7). */
export const workflows = automationResource<WorkflowDto, WorkflowBodyInput>(
  '/workflows',
  WorkflowSchema,
  WorkflowListSchema,
);
