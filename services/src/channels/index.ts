/**
 * The public entry of the channels: Telegram, WhatsApp and Instagram connections, deliveries and the inbox.
 * Other modules, the facade and the composition roots import only this file (DESIGN.md §3, eslint.config.js).
 */
export { createChannelAdapters } from './channel-adapters.js';
export { ChannelApiError } from './channel-api-error.js';
export { createChannelConnections } from './channel-connections.js';
export type { ChannelConnections } from './channel-connections.js';
export { createChannelSecrets } from './channel-secrets.js';
export type { ChannelSecretsBox } from './channel-secrets.js';
export type { ChannelAdapter, ChannelSetup } from './channel.port.js';
export { createChatFloodLimit } from './chat-flood-limit.js';
export type { ChatFloodLimit } from './chat-flood-limit.js';
export { createInboundRecorder } from './inbound-recorder.js';
export type { InboundRecorder } from './inbound-recorder.js';
export { cachedIntegrations } from './integration-cache.js';
export { metaHandshake, metaSignatureValid } from './meta/meta-signature.js';
export { readInstagramDelivery, readWhatsAppDelivery } from './meta/meta.webhooks.js';
export { splitText } from './split-text.js';
export { readTelegramUpdate } from './telegram/telegram.updates.js';
