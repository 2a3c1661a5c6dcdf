/**
 * The outbound module's public entry (DESIGN.md §3): the one SSRF-guarded fetch the crawler, actions, channels
 * and Drive use, its transports, and the OUTBOUND_ALLOWLIST parser. Other modules import only this file.
 */
export { createBrowserLikeTransport } from './browser-like.transport.js';
export { createNodeHttpTransport } from './node-http.transport.js';
export { parseOutboundAllowlist } from './outbound-allowlist.js';
export { OutboundError } from './outbound-error.js';
export type { OutboundErrorReason } from './outbound-error.js';
export { createOutboundFetch } from './outbound-fetch.js';
export type { OutboundFetch, OutboundResponse } from './outbound-fetch.js';
export { createOutboundTargetCheck } from './outbound-target.js';
export type { OutboundTargetCheck } from './outbound-target.js';
