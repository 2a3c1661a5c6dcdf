import { planMessages, type Plan } from '@kesher/contracts';
import { DomainError } from '../platform/commands/decider.js';
import type { PlanOf } from './plan-book.js';

/**
 * The features only a paid tier may use (spec part 2 §6: Telegram, WhatsApp, Instagram, auto-sync — the
 * crawler's scheduled recrawl — and Google Drive). One function answers for all of them, so the channels,
 * Drive and the crawler ask the same question and billing changes the answer in one place.
 */
export const GATED_FEATURES = ['telegram', 'whatsapp', 'instagram', 'scheduled_recrawl', 'google_drive'] as const;
export type GatedFeature = (typeof GATED_FEATURES)[number];

export function featureAllowed(plan: Plan, _feature: GatedFeature): boolean {
  return plan.tier !== 'FREE';
}

/** Throws DomainError('forbidden') naming the feature and how to lift the limit when the owner's plan lacks it. */
export async function requireFeature(planOf: PlanOf, ownerId: string, feature: GatedFeature): Promise<void> {
  const plan = await planOf(ownerId);
  if (featureAllowed(plan, feature)) return;
  throw new DomainError('forbidden', planMessages.needsPaidPlan[feature]);
}
