import { z } from 'zod';
import type { SecretBox } from '../platform/secrets/secret-box.js';
import type { ChannelSecrets } from './channel.port.js';

const SecretsSchema = z.object({ token: z.string(), webhookSecret: z.string(), appSecret: z.string().nullable() });

/**
 * A connection's secrets as one sealed value, bound to its integration id: a sealed value copied onto
 * another integration does not open there.
 */
export function createChannelSecrets(box: SecretBox) {
  return {
    seal: (integrationId: string, secrets: ChannelSecrets) =>
      box.seal(JSON.stringify(secrets), `channel:${integrationId}`),
    open: (integrationId: string, sealed: string): ChannelSecrets =>
      SecretsSchema.parse(JSON.parse(box.open(sealed, `channel:${integrationId}`))),
  };
}
export type ChannelSecretsBox = ReturnType<typeof createChannelSecrets>;
