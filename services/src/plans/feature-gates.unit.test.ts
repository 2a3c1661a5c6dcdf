import { plans } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../platform/commands/decider.js';
import { GATED_FEATURES, featureAllowed, requireFeature } from './feature-gates.js';

describe('feature gates', () => {
  it('keeps every gated feature from the free tier and opens it on the paid tiers', () => {
    for (const feature of GATED_FEATURES) {
      expect(featureAllowed(plans.FREE, feature)).toBe(false);
      expect(featureAllowed(plans.PRO, feature)).toBe(true);
      expect(featureAllowed(plans.ENTERPRISE, feature)).toBe(true);
    }
  });

  it('refuses a free owner with a message that names the feature and the way to lift it', async () => {
    const refusal = requireFeature(async () => plans.FREE, 'owner-1', 'telegram');
    await expect(refusal).rejects.toBeInstanceOf(DomainError);
    await expect(refusal).rejects.toThrow(/Telegram needs a paid plan.*pricing/);
    await expect(requireFeature(async () => plans.PRO, 'owner-1', 'google_drive')).resolves.toBeUndefined();
  });
});
