import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Google's OAuth 2.0 and Drive v3 endpoints, speaking their documented wire format
 * (form-encoded token requests, `{error, error_description}` OAuth errors, `{error: {code, message,
 * status}}` API errors, Drive's file resources and `?alt=media` / `/export`). Its consent screen agrees at
 * once and sends the browser back with a code, so a browser test can walk the whole connect flow.
 */
export interface StandInFile {
  id: string;
  name: string;
  mimeType: string;
  /** The bytes served by `?alt=media`, or the text served by `/export` for Google's own formats. */
  content: Buffer | string;
  modifiedTime?: string;
}

export interface GoogleStandIn {
  url: string;
  clientId: string;
  clientSecret: string;
  files: StandInFile[];
  /** Access tokens Google would accept now; revoking or expiring one removes it. */
  validAccessTokens: Set<string>;
  revoked: string[];
  /** Requests as received (method and path), for assertions about what was asked. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** Makes every following Drive call answer this status (e.g. 500), until cleared. */
  failDriveWith: number | null;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
};

const apiError = (response: ServerResponse, code: number, status: string, message: string) =>
  json(response, code, { error: { code, message, errors: [{ message, domain: 'global', reason: status }], status } });

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The part of Drive's query language the picker sends: `name contains '…'` (with \' and \\ escapes). */
function nameFilter(q: string): string | null {
  const match = /name contains '((?:\\.|[^'\\])*)'/.exec(q);
  return match ? match[1]!.replace(/\\(.)/g, '$1') : null;
}

export async function startGoogleStandIn(seed: { files?: StandInFile[] } = {}): Promise<GoogleStandIn> {
  const clientId = 'stand-in-client.apps.googleusercontent.com';
  const clientSecret = 'stand-in-secret';
  const codes = new Map<string, true>();
  const refreshTokens = new Set<string>();
  let issued = 0;

  const state: Omit<GoogleStandIn, 'url' | 'close'> = {
    clientId,
    clientSecret,
    files: seed.files ?? [],
    validAccessTokens: new Set(),
    revoked: [],
    requests: [],
    failDriveWith: null,
  };

  const issueTokens = (withRefresh: boolean) => {
    issued += 1;
    const access = `ya29.stand-in-access-${issued}`;
    state.validAccessTokens.add(access);
    const body: Record<string, unknown> = {
      access_token: access,
      expires_in: 3599,
      scope: 'https://www.googleapis.com/auth/drive.readonly',
      token_type: 'Bearer',
    };
    if (withRefresh) {
      const refresh = `1//stand-in-refresh-${issued}`;
      refreshTokens.add(refresh);
      body.refresh_token = refresh;
    }
    return body;
  };

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    state.requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      authorization: request.headers.authorization,
    });

    // The consent screen: agrees at once and returns to the redirect address with a code and the state.
    if (request.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      if (url.searchParams.get('client_id') !== clientId)
        return json(response, 400, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
      const code = `4/stand-in-code-${codes.size + 1}`;
      codes.set(code, true);
      const back = new URL(url.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      back.searchParams.set('scope', url.searchParams.get('scope') ?? '');
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }

    if (request.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(await readBody(request));
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret)
        return json(response, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (!codes.delete(code))
          return json(response, 400, { error: 'invalid_grant', error_description: 'Malformed auth code.' });
        return json(response, 200, issueTokens(true));
      }
      if (form.get('grant_type') === 'refresh_token') {
        if (!refreshTokens.has(form.get('refresh_token') ?? ''))
          return json(response, 400, {
            error: 'invalid_grant',
            error_description: 'Token has been expired or revoked.',
          });
        return json(response, 200, issueTokens(false));
      }
      return json(response, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' });
    }

    if (request.method === 'POST' && url.pathname === '/revoke') {
      const token = new URLSearchParams(await readBody(request)).get('token') ?? '';
      const known = state.validAccessTokens.delete(token) || refreshTokens.delete(token);
      if (!known) return json(response, 400, { error: 'invalid_token', error_description: 'Token expired or revoked' });
      state.revoked.push(token);
      return json(response, 200, {});
    }

    if (url.pathname.startsWith('/drive/v3/files')) {
      if (state.failDriveWith) return apiError(response, state.failDriveWith, 'INTERNAL', 'Internal Error');
      const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!state.validAccessTokens.has(token))
        return apiError(
          response,
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        );
      const parts = url.pathname.split('/').slice(4).map(decodeURIComponent);
      if (parts.length === 0) {
        const search = nameFilter(url.searchParams.get('q') ?? '');
        const visible = state.files.filter(
          (file) => search === null || file.name.toLowerCase().includes(search.toLowerCase()),
        );
        const size = Math.min(Number(url.searchParams.get('pageSize') ?? 100), 1000);
        const start = Number(url.searchParams.get('pageToken') ?? 0);
        const page = visible.slice(start, start + size);
        return json(response, 200, {
          kind: 'drive#fileList',
          files: page.map((file) => ({
            id: file.id,
            name: file.name,
            mimeType: file.mimeType,
            size: file.mimeType.startsWith('application/vnd.google-apps')
              ? undefined
              : String(Buffer.byteLength(file.content)),
            modifiedTime: file.modifiedTime ?? '2026-11-01T10:00:00.000Z',
          })),
          ...(start + size < visible.length ? { nextPageToken: String(start + size) } : {}),
        });
      }
      const file = state.files.find((candidate) => candidate.id === parts[0]);
      if (!file) return apiError(response, 404, 'NOT_FOUND', `File not found: ${parts[0]}.`);
      const native = file.mimeType.startsWith('application/vnd.google-apps');
      if (parts[1] === 'export') {
        if (!native) return apiError(response, 403, 'FAILED_PRECONDITION', 'Export only supports Docs Editors files.');
        response.writeHead(200, { 'content-type': url.searchParams.get('mimeType') ?? 'text/plain' });
        return response.end(file.content);
      }
      if (url.searchParams.get('alt') === 'media') {
        if (native)
          return apiError(
            response,
            403,
            'FAILED_PRECONDITION',
            'Only files with binary content can be downloaded. Use Export with Docs Editors files.',
          );
        response.writeHead(200, {
          'content-type': file.mimeType,
          'content-length': String(Buffer.byteLength(file.content)),
        });
        return response.end(file.content);
      }
      return json(response, 200, {
        id: file.id,
        name: file.name,
        mimeType: file.mimeType,
        ...(native ? {} : { size: String(Buffer.byteLength(file.content)) }),
      });
    }
    json(response, 404, { error: { code: 404, message: 'Not Found', status: 'NOT_FOUND' } });
  }

  const server: Server = createServer(
    (request, response) =>
      void handle(request, response).catch(() => json(response, 500, { error: 'stand-in failure' })),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
