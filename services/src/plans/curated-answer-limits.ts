import type { Plan, PlanTier } from '@kesher/contracts';

/**
 * Curated answers (issue 26) per assistant, by plan: enough on Free to fix the questions that matter most,
 * a full FAQ on Pro, a support desk's worth on Enterprise.
 */
export const curatedAnswersPerAssistant: Readonly<Record<PlanTier, number>> = {
  FREE: 50,
  PRO: 1_000,
  ENTERPRISE: 10_000,
};

export const curatedAnswerLimit = (plan: Pick<Plan, 'tier'>) => curatedAnswersPerAssistant[plan.tier];
