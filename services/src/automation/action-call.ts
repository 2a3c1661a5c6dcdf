import {
  automationLimits,
  automationMessages as M,
  parseTemplate,
  renderHeaderTemplate,
  renderJsonTemplate,
  renderUrlTemplate,
  type ActionFields,
  type ExternalEndpointStored,
} from '@kesher/contracts';
import { OutboundError, type OutboundFetch } from '../outbound/index.js';
import { maskSecret } from '../platform/secrets/secret-box.js';

/** The outcome of one call of an API action: the test's answer, a run's tool result. */
export interface ActionCallResult {
  success: boolean;
  message: string;
  statusCode: number | null;
  durationMs: number;
  response: unknown;
  request: {
    method: ActionFields['apiMethod'];
    url: string;
    headers: Record<string, string>;
    body: string | null;
  } | null;
}

export type InputValue = string | number | boolean | null;

export interface ActionCallDeps {
  fetch: OutboundFetch;
  /** Opens a sealed secret of this owner (header values, endpoint auth values). */
  open: (sealed: string) => string;
  now?: () => number;
}

export interface ActionCallRequest {
  action: ActionFields;
  inputs: Readonly<Record<string, unknown>>;
  /** The named endpoint the action calls, when it calls one (resolved by the caller for the assistant). */
  endpoint?: ExternalEndpointStored | null;
  signal?: AbortSignal;
}

/** Inputs as the action declares them: required ones present, numbers and booleans as such. Returns a message when one is wrong. */
export function coerceInputs(
  action: ActionFields,
  given: Readonly<Record<string, unknown>>,
): { values: Record<string, InputValue> } | { error: string } {
  const values: Record<string, InputValue> = {};
  for (const input of action.apiInputs) {
    const raw = given[input.name];
    if (raw === undefined || raw === null || raw === '') {
      if (input.required) return { error: M.missingTestInput(input.name) };
      values[input.name] = null;
      continue;
    }
    if (input.type === 'number') {
      const number = typeof raw === 'number' ? raw : Number(String(raw).trim());
      if (!Number.isFinite(number)) return { error: M.actionInputInvalid(input.name, 'number') };
      values[input.name] = number;
    } else if (input.type === 'boolean') {
      if (typeof raw === 'boolean') values[input.name] = raw;
      else if (/^(true|yes|1|כן)$/i.test(String(raw).trim())) values[input.name] = true;
      else if (/^(false|no|0|לא)$/i.test(String(raw).trim())) values[input.name] = false;
      else return { error: M.actionInputInvalid(input.name, 'boolean') };
    } else {
      values[input.name] = String(raw).slice(0, automationLimits.headerValueChars);
    }
  }
  return { values };
}

const failed = (
  message: string,
  started: number,
  now: () => number,
  request: ActionCallResult['request'],
  statusCode: number | null = null,
  response: unknown = null,
): ActionCallResult => ({
  success: false,
  message,
  statusCode,
  durationMs: Math.max(0, now() - started),
  response,
  request,
});

/**
 * Calls an API action through the one guarded outbound fetch (the crawler's SSRF guard: private, loopback,
 * link-local and metadata addresses refused unless OUTBOUND_ALLOWLIST lets them through, redirects
 * included), within the endpoint's timeout and the response size cap. Never throws for what the remote
 * side does: every outcome is a result with a readable message, so a run always gets an answer.
 */
export async function callAction(deps: ActionCallDeps, call: ActionCallRequest): Promise<ActionCallResult> {
  const now = deps.now ?? Date.now;
  const started = now();
  const { action } = call;
  const coerced = coerceInputs(action, call.inputs);
  if ('error' in coerced) return failed(coerced.error, started, now, null);
  const values = coerced.values;

  const endpointParts = parseTemplate(action.apiEndpoint);
  if (!endpointParts) return failed(M.malformedTemplate('Endpoint URL'), started, now, null);
  let url = renderUrlTemplate(endpointParts, values);
  if (action.endpointName) {
    if (!call.endpoint) return failed(M.unknownEndpointName(action.endpointName), started, now, null);
    url = call.endpoint.baseUrl.replace(/\/+$/, '') + url;
  }

  const headers: Record<string, string> = { accept: 'application/json' };
  const shown: Record<string, string> = { accept: 'application/json' };
  for (const header of action.apiHeaders) {
    let template: string;
    try {
      template = header.sealed ? deps.open(header.value) : header.value;
    } catch {
      return failed(M.actionUnreachable(`the secret of header ${header.key} cannot be read`), started, now, null);
    }
    const parts = parseTemplate(template);
    if (!parts) return failed(M.malformedTemplate(`Header ${header.key}`), started, now, null);
    headers[header.key] = renderHeaderTemplate(parts, values);
    shown[header.key] = header.sealed ? maskSecret(headers[header.key]!) : headers[header.key]!;
  }
  const endpoint = call.endpoint;
  if (action.endpointName && endpoint?.authHeaderName && endpoint.authHeaderValueSealed) {
    try {
      headers[endpoint.authHeaderName] = deps.open(endpoint.authHeaderValueSealed);
    } catch {
      return failed(M.actionUnreachable('the endpoint’s secret cannot be read'), started, now, null);
    }
    shown[endpoint.authHeaderName] = maskSecret(headers[endpoint.authHeaderName]!);
  }

  let body: string | undefined;
  if (action.apiMethod !== 'GET' && action.apiBodyTemplate.trim()) {
    const parts = parseTemplate(action.apiBodyTemplate);
    if (!parts) return failed(M.malformedTemplate('Body template'), started, now, null);
    body = renderJsonTemplate(parts, values);
    headers['content-type'] = 'application/json';
    shown['content-type'] = 'application/json';
  }
  const request = { method: action.apiMethod, url, headers: shown, body: body ?? null };
  const timeoutMs = endpoint?.timeoutMs ?? automationLimits.actionTimeoutMs;
  const maxBytes = automationLimits.actionResponseBytes;

  try {
    const response = await deps.fetch({
      url,
      method: action.apiMethod,
      headers,
      ...(body !== undefined ? { body } : {}),
      timeoutMs,
      maxBytes,
      maxRedirects: 3,
      ...(call.signal ? { signal: call.signal } : {}),
    });
    if (response.truncated) return failed(M.actionTooLarge(maxBytes), started, now, request, response.status);
    const text = Buffer.from(response.body).toString('utf8');
    let parsed: unknown = null;
    let isJson = false;
    if (text.trim() !== '') {
      try {
        parsed = JSON.parse(text);
        isJson = true;
      } catch {
        parsed = text.slice(0, 2_000);
      }
    }
    if (response.status >= 400)
      return failed(M.actionHttpError(response.status), started, now, request, response.status, parsed);
    // An empty success (204) is a success; a body that is not JSON is not something an assistant can quote reliably.
    if (text.trim() !== '' && !isJson)
      return failed(M.actionNotJson(response.contentType), started, now, request, response.status, parsed);
    return {
      success: true,
      message: M.testSuccessful,
      statusCode: response.status,
      durationMs: Math.max(0, now() - started),
      response: parsed,
      request,
    };
  } catch (error) {
    if (error instanceof OutboundError) {
      if (error.reason === 'timeout') return failed(M.actionTimedOut(timeoutMs), started, now, request);
      if (
        error.reason === 'blocked-address' ||
        error.reason === 'unsupported-scheme' ||
        error.reason === 'credentials-in-url' ||
        error.reason === 'invalid-url'
      ) {
        return failed(M.actionRefused(error.message), started, now, request);
      }
      return failed(M.actionUnreachable(error.message), started, now, request);
    }
    return failed(M.actionUnreachable(error instanceof Error ? error.message : String(error)), started, now, request);
  }
}
