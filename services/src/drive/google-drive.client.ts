import { z } from 'zod';
import { driveReading, driveSearchQuery, type DriveFile } from './drive-files.js';

/**
 * Google's OAuth 2.0 and Drive v3 over their documented HTTP APIs (no SDK: four calls, and the base
 * addresses must be configurable so tests and `make start` can point them at a local stand-in).
 */
export interface GoogleDriveEndpoints {
  /** The consent screen (default https://accounts.google.com/o/oauth2/v2/auth). */
  authorizeUrl: string;
  /** Token exchange, refresh and revocation (default https://oauth2.googleapis.com: /token, /revoke). */
  oauthUrl: string;
  /** Drive v3 (default https://www.googleapis.com: /drive/v3/files …). */
  driveApiUrl: string;
  clientId: string;
  clientSecret: string;
  /** Where Google sends the owner back with the code (the API's callback route). */
  redirectUri: string;
  /** One Drive call's time limit (default 20 s). */
  timeoutMs?: number;
  /** The largest file imported (the upload limit). */
  maxFileBytes: number;
}

/** The read-only Drive scope (spec part 1 §5): listing and reading, never changing the owner's files. */
export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.readonly';

export type DriveErrorKind = 'unauthorized' | 'not_found' | 'too_large' | 'unavailable' | 'rejected';

/** A refusal from Google, with its own reason: 401 means the owner must connect again. */
export class GoogleDriveError extends Error {
  constructor(
    readonly kind: DriveErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'GoogleDriveError';
  }
}

const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  token_type: z.string().optional(),
});
export type GoogleTokens = z.infer<typeof TokenResponseSchema>;

const OAuthErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });
const ApiErrorSchema = z.object({
  error: z.object({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional() }),
});

const DriveFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.string().optional(),
  modifiedTime: z.string().optional(),
});
const FileListSchema = z.object({ files: z.array(DriveFileSchema).default([]), nextPageToken: z.string().optional() });

const toDriveFile = (file: z.infer<typeof DriveFileSchema>): DriveFile => ({
  id: file.id,
  name: file.name,
  mimeType: file.mimeType,
  size: file.size === undefined ? null : Number(file.size),
  modifiedTime: file.modifiedTime ?? null,
});

const FILE_FIELDS = 'id,name,mimeType,size,modifiedTime';

export function createGoogleDriveClient(endpoints: GoogleDriveEndpoints) {
  const timeoutMs = endpoints.timeoutMs ?? 20_000;
  const driveBase = endpoints.driveApiUrl.replace(/\/$/, '');
  const oauthBase = endpoints.oauthUrl.replace(/\/$/, '');

  async function call(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new GoogleDriveError(
        'unavailable',
        `Google could not be reached (${(error as Error).name === 'TimeoutError' ? 'timed out' : (error as Error).message}).`,
      );
    }
  }

  /** Google's reason, from either of its error shapes (OAuth's `error`/`error_description`, the APIs' `error.message`). */
  async function refusal(response: Response): Promise<GoogleDriveError> {
    const text = await response.text().catch(() => '');
    let reason = `HTTP ${response.status}`;
    try {
      const body: unknown = JSON.parse(text);
      const api = ApiErrorSchema.safeParse(body);
      const oauth = OAuthErrorSchema.safeParse(body);
      if (api.success && api.data.error.message) reason = api.data.error.message;
      else if (oauth.success) reason = oauth.data.error_description ?? oauth.data.error;
    } catch {
      // Not JSON: the status says enough.
    }
    const kind: DriveErrorKind =
      response.status === 401 || (response.status === 400 && /invalid_grant|invalid_token/.test(text))
        ? 'unauthorized'
        : response.status === 404
          ? 'not_found'
          : response.status >= 500
            ? 'unavailable'
            : 'rejected';
    return new GoogleDriveError(kind, reason);
  }

  async function tokenRequest(form: Record<string, string>): Promise<GoogleTokens> {
    const response = await call(`${oauthBase}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    if (!response.ok) throw await refusal(response);
    const parsed = TokenResponseSchema.safeParse(await response.json().catch(() => null));
    if (!parsed.success)
      throw new GoogleDriveError('unavailable', 'Google answered the token request in an unexpected shape.');
    return parsed.data;
  }

  /** Reads at most `maxFileBytes` of a body: a file over the limit is refused, never held whole. */
  async function boundedBytes(response: Response): Promise<Buffer> {
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > endpoints.maxFileBytes) {
      await response.body?.cancel();
      throw new GoogleDriveError('too_large', 'The file is larger than the upload limit.');
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of response.body ?? []) {
      total += (chunk as Uint8Array).byteLength;
      if (total > endpoints.maxFileBytes)
        throw new GoogleDriveError('too_large', 'The file is larger than the upload limit.');
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    return Buffer.concat(chunks);
  }

  const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

  return {
    /** The consent screen's address: offline access (a refresh token), the read-only scope, our state. */
    authorizationUrl(state: string): string {
      const url = new URL(endpoints.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: endpoints.clientId,
        redirect_uri: endpoints.redirectUri,
        response_type: 'code',
        scope: DRIVE_SCOPE,
        access_type: 'offline',
        include_granted_scopes: 'true',
        prompt: 'consent',
        state,
      }).toString();
      return url.toString();
    },

    exchangeCode: (code: string) =>
      tokenRequest({
        code,
        client_id: endpoints.clientId,
        client_secret: endpoints.clientSecret,
        redirect_uri: endpoints.redirectUri,
        grant_type: 'authorization_code',
      }),

    refresh: (refreshToken: string) =>
      tokenRequest({
        refresh_token: refreshToken,
        client_id: endpoints.clientId,
        client_secret: endpoints.clientSecret,
        grant_type: 'refresh_token',
      }),

    /** Sign Out: Google forgets the grant. A token it no longer knows counts as revoked. */
    async revoke(token: string): Promise<void> {
      const response = await call(`${oauthBase}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
      if (response.ok) return;
      const error = await refusal(response);
      if (error.kind !== 'unauthorized') throw error;
    },

    async listFiles(
      accessToken: string,
      options: { search: string; pageSize: number; pageToken?: string },
    ): Promise<{ files: DriveFile[]; nextPageToken: string | null }> {
      const query = new URLSearchParams({
        q: driveSearchQuery(options.search),
        pageSize: String(options.pageSize),
        fields: `nextPageToken,files(${FILE_FIELDS})`,
        orderBy: 'modifiedTime desc',
        spaces: 'drive',
      });
      if (options.pageToken) query.set('pageToken', options.pageToken);
      const response = await call(`${driveBase}/drive/v3/files?${query}`, { headers: bearer(accessToken) });
      if (!response.ok) throw await refusal(response);
      const parsed = FileListSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success)
        throw new GoogleDriveError('unavailable', 'Google Drive answered the file list in an unexpected shape.');
      return { files: parsed.data.files.map(toDriveFile), nextPageToken: parsed.data.nextPageToken ?? null };
    },

    async fileMetadata(accessToken: string, fileId: string): Promise<DriveFile> {
      const response = await call(`${driveBase}/drive/v3/files/${encodeURIComponent(fileId)}?fields=${FILE_FIELDS}`, {
        headers: bearer(accessToken),
      });
      if (!response.ok) throw await refusal(response);
      const parsed = DriveFileSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) throw new GoogleDriveError('unavailable', 'Google Drive answered in an unexpected shape.');
      return toDriveFile(parsed.data);
    },

    /** The file's bytes: exported for Google's own formats, downloaded for the rest. */
    async fileBytes(accessToken: string, file: DriveFile): Promise<Buffer> {
      const reading = driveReading(file.mimeType);
      if (!reading) throw new GoogleDriveError('rejected', 'This file type cannot be imported.');
      if (file.size !== null && file.size > endpoints.maxFileBytes)
        throw new GoogleDriveError('too_large', 'The file is larger than the upload limit.');
      const id = encodeURIComponent(file.id);
      const url =
        reading.via === 'export'
          ? `${driveBase}/drive/v3/files/${id}/export?mimeType=${encodeURIComponent(reading.exportMimeType)}`
          : `${driveBase}/drive/v3/files/${id}?alt=media`;
      const response = await call(url, { headers: bearer(accessToken) });
      if (!response.ok) throw await refusal(response);
      return boundedBytes(response);
    },
  };
}
export type GoogleDriveClient = ReturnType<typeof createGoogleDriveClient>;
