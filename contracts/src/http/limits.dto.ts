import { z } from 'zod';
import { PlanLimitsSchema, PlanTierSchema } from '../rules/plans.js';

/** GET /limits/usage (spec part 2 §3 Usage: usage {assistants, messages, storage_mb} and limits). */
export const UsageResponseSchema = z.object({
  tier: PlanTierSchema,
  usage: z.object({
    assistants: z.number().int(),
    /** User messages the owner's assistants received this calendar month (UTC), visitors' included. */
    messages: z.number().int(),
    storage_mb: z.number(),
  }),
  limits: PlanLimitsSchema,
  /** The month `messages` counts (UTC): it resets at `period_end`, the 1st of the next month. */
  period_start: z.string().describe('ISO 8601'),
  period_end: z.string().describe('ISO 8601'),
});
export type UsageResponse = z.infer<typeof UsageResponseSchema>;
