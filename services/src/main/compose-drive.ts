import { uploadLimits } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { GoogleDriveRoutesDeps } from '../api/routes/google-drive/google-drive.routes.js';
import { createFileIntake } from '../api/routes/files/file-intake.js';
import type { FileRoutesDeps } from '../api/routes/files/files.routes.js';
import { createDriveConnections, createGoogleDriveClient } from '../drive/index.js';
import type { PlanOf } from '../plans/index.js';
import type { Config } from '../platform/config/config.js';
import { createSecretBox } from '../platform/secrets/secret-box.js';
import { loadSecretsKey } from '../platform/secrets/secrets-key.js';
import type { Sql } from '../platform/sql/sql.port.js';

/**
 * Google Drive import's parts: Google's endpoints (when an OAuth client is configured), the sealed
 * grants, and the files' intake — the upload's own, so limits and extraction are the same for both doors.
 */
export function composeDriveApi(deps: {
  config: Config;
  sql: Sql;
  planOf: PlanOf;
  files: Omit<FileRoutesDeps, 'readDb'>;
  publicUrl: string;
  clock: () => Date;
}): GoogleDriveRoutesDeps {
  const { config } = deps;
  const secrets = createSecretBox({ key: loadSecretsKey(config) });
  const assistants = assistantQueries(deps.sql);
  const drive =
    config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
      ? createGoogleDriveClient({
          authorizeUrl: config.GOOGLE_AUTHORIZE_URL,
          oauthUrl: config.GOOGLE_OAUTH_URL,
          driveApiUrl: config.GOOGLE_DRIVE_API_URL,
          clientId: config.GOOGLE_CLIENT_ID,
          clientSecret: config.GOOGLE_CLIENT_SECRET,
          redirectUri: `${deps.publicUrl}/api/v1/google-drive/auth/callback`,
          maxFileBytes: uploadLimits.maxFileBytes,
        })
      : null;
  return {
    drive,
    connections: createDriveConnections({ sql: deps.sql, secrets }),
    secrets,
    planOf: deps.planOf,
    readDb: deps.sql,
    addFile: createFileIntake({
      ...deps.files,
      isAssistantAlive: async (ownerId, assistantId) =>
        (await assistants.listByOwner(ownerId)).some((a) => a.id === assistantId),
    }),
    publicUrl: deps.publicUrl,
    clock: deps.clock,
  };
}
