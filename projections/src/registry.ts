import { accountsProjection } from './accounts/accounts.projection.js';
import { analyticsProjections } from './analytics/analytics-projections.js';
import { answerSourcesProjection } from './analytics/answer-sources/answer-sources.projection.js';
import { automationProjection } from './automation/automation.projection.js';
import { assistantsProjection } from './assistants/assistants.projection.js';
import { billingProjection } from './billing/billing.projection.js';
import { crawlerProjection } from './crawler/crawler.projection.js';
import { curatedAnswersProjection } from './curated-answers/curated-answers.projection.js';
import { channelsProjection } from './channels/channels.projection.js';
import { knowledgeProjection, readBlobFromReadModel } from './knowledge/knowledge.projection.js';
import type { Projection } from '@kesher/contracts/ports/projection';
import { threadsProjection } from './threads/threads.projection.js';
import { usageProjection } from './usage/usage.projection.js';

/** Every read model Kesher maintains; the projector runs them all, `npm run replay -- <name>` one. */
export const allProjections: readonly Projection[] = [
  accountsProjection,
  assistantsProjection,
  knowledgeProjection({ readBlob: readBlobFromReadModel }),
  threadsProjection,
  usageProjection,
  crawlerProjection,
  billingProjection,
  ...analyticsProjections,
  automationProjection,
  channelsProjection,
  curatedAnswersProjection,
  answerSourcesProjection,
];
