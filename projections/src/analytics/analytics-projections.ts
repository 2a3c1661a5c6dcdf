import type { Projection } from '@kesher/contracts/ports/projection';
import { dailyActivityProjection } from './daily-activity/daily-activity.projection.js';
import { feedbackProjection } from './feedback/feedback.projection.js';
import { keywordsProjection } from './keywords/keywords.projection.js';
import { limitViolationsProjection } from './limit-violations/limit-violations.projection.js';
import { queriesProjection } from './queries/queries.projection.js';
import { referredUrlsProjection } from './referred-urls/referred-urls.projection.js';
import { responseTimesProjection } from './response-times/response-times.projection.js';

/** The analytics read models (docs/analytics.md); each is rebuilt from the log on its own. */
export const analyticsProjections: readonly Projection[] = [
  dailyActivityProjection,
  responseTimesProjection,
  feedbackProjection,
  keywordsProjection,
  referredUrlsProjection,
  limitViolationsProjection,
  queriesProjection,
];
