import { type GuidelineBodyInput, type GuidelineDto, GuidelineListSchema, GuidelineSchema } from '@kesher/contracts';
import { automationResource } from './automation-resource';

/** GET, POST /guidelines; PUT /guidelines/{id} with the whole guideline, or only `active` when toggling (§7). */
export const guidelines = automationResource<
  GuidelineDto,
  GuidelineBodyInput,
  GuidelineBodyInput | { active: boolean }
>('/guidelines', GuidelineSchema, GuidelineListSchema);
