import {
  DriveAuthUrlRequestSchema,
  DriveAuthUrlResponseSchema,
  DriveImportMultipleRequestSchema,
  DriveImportRequestSchema,
  DriveImportResponseSchema,
  DriveListRequestSchema,
  DriveListResponseSchema,
  driveMessages,
  DriveRevokeRequestSchema,
  DriveTokenResponseSchema,
  messages,
  type DriveImportResponse,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type DriveConnections,
  driveFileUrl,
  driveReading,
  type GoogleDriveClient,
  GoogleDriveError,
  knowledgeFileName,
} from '../../../drive/index.js';
import { type PlanOf, requireFeature } from '../../../plans/index.js';
import type { SecretBox } from '../../../platform/secrets/secret-box.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import type { FileIntake } from '../files/file-intake.js';
import {
  bindingCookie,
  browserMatches,
  clearedBindingCookie,
  newBrowserBinding,
  presentedBinding,
} from './oauth-browser-binding.js';

export interface GoogleDriveRoutesDeps {
  /** Google's endpoints, or null when no OAuth client is configured (the routes then say so). */
  drive: GoogleDriveClient | null;
  connections: DriveConnections;
  /** Seals the OAuth state, so the callback knows whose return it is and that nobody forged it. */
  secrets: SecretBox;
  planOf: PlanOf;
  readDb: Sql;
  addFile: FileIntake;
  /** Where the browser lands after the consent screen (the client's /oauth/callback). */
  publicUrl: string;
  clock: () => Date;
}

/** How long the consent screen may take before its state is refused. */
const STATE_TTL_MS = 10 * 60_000;
const STATE_CONTEXT = 'drive-oauth-state';
/** `flow` names the flow for the client's return page; `browser` is the digest of the starting browser's cookie. */
const OAuthStateSchema = z.object({
  owner: z.string(),
  assistant: z.number().int().positive(),
  expires: z.number(),
  flow: z.string(),
  browser: z.string(),
});

/**
 * Google Drive import (spec part 1 §7): the consent screen's address, its return, the file list, import
 * and import-multiple, a fresh access token, and Sign Out. Every call but the return needs the owner and
 * a paid plan (part 2 §6); every imported file takes the upload's path (limits, slots, extraction).
 */
export const googleDriveRoutes =
  (deps: GoogleDriveRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);
    const site = new URL(deps.publicUrl);
    // The callback as the browser addresses it (Google's redirect_uri is built on PUBLIC_URL the same way).
    const cookieScope = {
      path: `${site.pathname.replace(/\/$/, '')}/api/v1/google-drive/auth/callback`,
      secure: site.protocol === 'https:',
    };

    async function ownerWithDrive(request: FastifyRequest) {
      const account = requireAccount(request);
      await requireFeature(deps.planOf, account.id, 'google_drive');
      if (!deps.drive) throw new ApiError(503, driveMessages.notConfigured);
      return { account, drive: deps.drive };
    }

    async function ownedAssistant(ownerId: string, numericId: number) {
      const row = await assistants.findOwned(ownerId, numericId);
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return row;
    }

    /** Google's refusals in the API's terms: an expired grant asks the owner to connect again (not a 401: that is Kesher's own sign-in). */
    function fromGoogle(error: unknown, fallback: 'connectFailed' | 'loadFailed'): never {
      if (!(error instanceof GoogleDriveError)) throw error;
      if (error.kind === 'unauthorized') throw new ApiError(403, driveMessages.sessionExpired);
      // Google's own words follow the catalogue text, so the words alone do not name it: the code does.
      const detail = `${driveMessages[fallback]}: ${error.message}`;
      throw new ApiError(error.kind === 'unavailable' ? 502 : 422, detail, {}, `drive.${fallback}`);
    }

    app.post(
      '/google-drive/auth/url',
      {
        schema: {
          summary: "Google's consent screen for read-only Drive access; the browser goes there",
          body: DriveAuthUrlRequestSchema,
          response: { 200: DriveAuthUrlResponseSchema },
        },
      },
      async (request, reply) => {
        const { account, drive } = await ownerWithDrive(request);
        await ownedAssistant(account.id, request.body.assistant_id);
        // Bound to this browser (oauth-browser-binding.ts): whoever else opens the consent link cannot finish it.
        const binding = newBrowserBinding();
        const flow = randomBytes(12).toString('base64url');
        const claim: z.infer<typeof OAuthStateSchema> = {
          owner: account.id,
          assistant: request.body.assistant_id,
          expires: deps.clock().getTime() + STATE_TTL_MS,
          flow,
          browser: binding.digest,
        };
        reply.header('set-cookie', bindingCookie(binding.secret, STATE_TTL_MS / 1000, cookieScope));
        return { auth_url: drive.authorizationUrl(deps.secrets.seal(JSON.stringify(claim), STATE_CONTEXT)), flow };
      },
    );

    app.get(
      '/google-drive/auth/callback',
      {
        schema: {
          summary:
            "Google's return from the consent screen: the code is exchanged and the browser sent to /oauth/callback with the access token (or the error)",
          querystring: z.object({
            code: z.string().max(2048).optional(),
            state: z.string().max(4096).optional(),
            error: z.string().max(200).optional(),
          }),
        },
      },
      async (request, reply) => {
        const back = (params: Record<string, string>) =>
          reply.redirect(`${deps.publicUrl}/oauth/callback?${new URLSearchParams(params)}`, 302);
        const { code, state, error } = request.query;
        if (error) return back({ google_drive_error: error });
        let claim: z.infer<typeof OAuthStateSchema>;
        try {
          claim = OAuthStateSchema.parse(JSON.parse(deps.secrets.open(state ?? '', STATE_CONTEXT)));
        } catch {
          return back({ google_drive_error: 'invalid_state' });
        }
        if (claim.expires < deps.clock().getTime()) return back({ google_drive_error: 'expired_state' });
        // One return per flow: the browser's secret is forgotten whatever happens next.
        const presented = presentedBinding(request.headers.cookie);
        reply.header('set-cookie', clearedBindingCookie(cookieScope));
        if (!browserMatches(presented, claim.browser)) {
          // Another browser (or another flow of this one) holds this consent link: nothing is exchanged or kept.
          request.log.warn(
            { owner: claim.owner, cookie: presented ? 'another flow' : 'none' },
            'Google Drive return refused: not the browser that started it',
          );
          return back({ google_drive_error: driveMessages.otherBrowser });
        }
        if (!code || !deps.drive) return back({ google_drive_error: code ? 'not_configured' : 'missing_code' });
        try {
          const tokens = await deps.drive.exchangeCode(code);
          if (tokens.refresh_token) await deps.connections.save(claim.owner, tokens.refresh_token, deps.clock());
          return back({
            google_drive_token: tokens.access_token,
            google_drive_success: 'true',
            assistant_id: String(claim.assistant),
            open_modal: 'files',
            flow: claim.flow,
          });
        } catch (failure) {
          if (!(failure instanceof GoogleDriveError)) throw failure;
          request.log.warn({ reason: failure.message }, 'Google Drive code exchange refused');
          return back({ google_drive_error: failure.message });
        }
      },
    );

    app.post(
      '/google-drive/auth/refresh',
      {
        schema: {
          summary: 'A fresh access token from the grant kept on the server (no consent screen)',
          response: { 200: DriveTokenResponseSchema },
        },
      },
      async (request) => {
        const { account, drive } = await ownerWithDrive(request);
        const refreshToken = await deps.connections.refreshToken(account.id);
        if (!refreshToken) throw new ApiError(403, driveMessages.signInFirst);
        try {
          const tokens = await drive.refresh(refreshToken);
          return { access_token: tokens.access_token, expires_in: tokens.expires_in ?? null };
        } catch (error) {
          // A grant Google no longer honours is forgotten here too: the next step is the consent screen.
          if (error instanceof GoogleDriveError && error.kind === 'unauthorized')
            await deps.connections.forget(account.id);
          fromGoogle(error, 'connectFailed');
        }
      },
    );

    app.post(
      '/google-drive/auth/revoke',
      {
        schema: {
          summary: 'Sign Out of Google Drive: Google forgets the grant and the server its refresh token',
          body: DriveRevokeRequestSchema,
          response: { 200: z.object({ detail: z.string() }) },
        },
      },
      async (request) => {
        const account = requireAccount(request);
        const refreshToken = await deps.connections.refreshToken(account.id);
        await deps.connections.forget(account.id);
        if (deps.drive) {
          for (const token of [request.body.access_token, refreshToken]) {
            if (!token) continue;
            // Signing out must not fail because Google is away: the server's copy is already gone.
            await deps.drive
              .revoke(token)
              .catch((error: unknown) => request.log.warn({ err: error }, 'Google Drive revoke failed'));
          }
        }
        return { detail: 'Signed out of Google Drive' };
      },
    );

    app.post(
      '/google-drive/files/list',
      {
        schema: {
          summary: "The owner's importable Drive files, newest first, 50 a page, searched by name",
          body: DriveListRequestSchema,
          response: { 200: DriveListResponseSchema },
        },
      },
      async (request) => {
        const { drive } = await ownerWithDrive(request);
        try {
          const page = await drive.listFiles(request.body.access_token, {
            search: request.body.query,
            pageSize: request.body.page_size,
            pageToken: request.body.page_token,
          });
          return { files: page.files, next_page_token: page.nextPageToken };
        } catch (error) {
          fromGoogle(error, 'loadFailed');
        }
      },
    );

    async function importFiles(
      request: FastifyRequest,
      assistantNumericId: number,
      accessToken: string,
      fileIds: readonly string[],
    ): Promise<DriveImportResponse> {
      const { account, drive } = await ownerWithDrive(request);
      const assistant = await ownedAssistant(account.id, assistantNumericId);
      const result: DriveImportResponse = { imported: [], failed: [] };
      // One at a time: each file takes a plan slot and storage, and the limits must see the one before.
      for (const id of new Set(fileIds)) {
        let name: string | null = null;
        try {
          const file = await drive.fileMetadata(accessToken, id);
          name = file.name;
          const reading = driveReading(file.mimeType);
          if (!reading) throw new ApiError(415, driveMessages.unsupportedType);
          const bytes = await drive.fileBytes(accessToken, file);
          const { file: stored } = await deps.addFile(request, {
            ownerId: account.id,
            assistantId: assistant.id,
            filename: knowledgeFileName(file, reading),
            kind: reading.kind,
            bytes,
            sourceUrl: driveFileUrl(file.id),
          });
          result.imported.push({
            drive_file_id: id,
            name: file.name,
            file: {
              id: stored.id,
              filename: stored.filename,
              bytes: stored.bytes,
              created_at: Math.floor(stored.createdAt.getTime() / 1000),
              status: stored.status,
              status_reason: stored.statusReason,
              source_url: stored.sourceUrl,
            },
          });
        } catch (error) {
          // An expired grant fails every file alike: say it once, as the reconnect it calls for.
          if (error instanceof GoogleDriveError && error.kind === 'unauthorized')
            throw new ApiError(403, driveMessages.sessionExpired);
          if (error instanceof GoogleDriveError || error instanceof ApiError) {
            result.failed.push({
              drive_file_id: id,
              name,
              error: error instanceof ApiError ? error.detail : error.message,
            });
            continue;
          }
          throw error;
        }
      }
      return result;
    }

    app.post(
      '/google-drive/files/import',
      {
        schema: {
          summary: 'Import picked Drive files into an assistant as knowledge files (imported and failed lists)',
          body: DriveImportRequestSchema,
          response: { 200: DriveImportResponseSchema },
        },
      },
      async (request) =>
        importFiles(
          request,
          request.body.assistant_id,
          request.body.access_token,
          request.body.files.map((file) => file.id),
        ),
    );

    app.post(
      '/google-drive/files/import-multiple',
      {
        schema: {
          summary: 'Import Drive files by id into an assistant (the multi-select picker)',
          body: DriveImportMultipleRequestSchema,
          response: { 200: DriveImportResponseSchema },
        },
      },
      async (request) =>
        importFiles(request, request.body.assistant_id, request.body.access_token, request.body.file_ids),
    );
  };
