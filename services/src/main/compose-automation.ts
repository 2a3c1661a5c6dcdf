import { automationQueries } from '@kesher/projections/automation/automation.queries';
import type { AutomationRoutesDeps } from '../api/routes/workflows/automation-routes.deps.js';
import {
  type BehaviourLoader,
  createBehaviourLoader,
  createRunAutomation,
  type RunAutomation,
} from '../automation/index.js';
import { createNodeHttpTransport, createOutboundFetch, parseOutboundAllowlist } from '../outbound/index.js';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import { createSecretBox, type SecretBox } from '../platform/secrets/secret-box.js';
import { loadSecretsKey } from '../platform/secrets/secrets-key.js';
import type { Platform } from './compose-platform.js';

/** The secret box of this deployment (SECRETS_KEY, or the key kept under DATA_DIR). */
export const automationSecrets = (platform: Platform): SecretBox =>
  createSecretBox({ key: loadSecretsKey(platform.config) });

/**
 * The guarded fetch API actions call through: the crawler's SSRF guard and OUTBOUND_ALLOWLIST, with a plain
 * HTTP client (an API needs no browser disguise; kept-alive sockets not shared with the crawler's).
 */
export function actionsOutbound(platform: Platform) {
  const { transport, close } = createNodeHttpTransport({ maxSockets: 16 });
  return {
    fetch: createOutboundFetch({ transport, allowlist: parseOutboundAllowlist(platform.config.OUTBOUND_ALLOWLIST) }),
    close,
  };
}

/** The workflow, guideline, action and external-API routes, for composeApi. */
export function composeAutomationApi(wiring: {
  platform: Platform;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
}): { deps: AutomationRoutesDeps; close: () => void } {
  const outbound = actionsOutbound(wiring.platform);
  return {
    deps: {
      handle: wiring.platform.handle,
      readDb: wiring.platform.sql,
      awaitReadModels: wiring.awaitReadModels,
      clock: wiring.clock,
      secrets: automationSecrets(wiring.platform),
      fetch: outbound.fetch,
      eventStore: wiring.platform.eventStore,
    },
    close: outbound.close,
  };
}

/** What the ai-runner needs to apply owners' automation to runs: the behaviour loader and the run's recorder and tool runner. */
export function composeRunAutomation(platform: Platform): {
  automation: { load: BehaviourLoader; run: RunAutomation };
  close: () => void;
} {
  const outbound = actionsOutbound(platform);
  return {
    automation: {
      load: createBehaviourLoader({ queries: automationQueries(platform.sql) }),
      run: createRunAutomation({
        eventStore: platform.eventStore,
        secrets: automationSecrets(platform),
        fetch: outbound.fetch,
        onError: (error) => platform.log.error({ err: error }, 'automation failed'),
      }),
    },
    close: outbound.close,
  };
}
