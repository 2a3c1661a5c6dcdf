import {
  InstagramIntegrationSchema,
  InstagramSetupResponseSchema,
  InstagramStatsSchema,
  IntegrationDisconnectedSchema,
  TelegramIntegrationSchema,
  TelegramSetupResponseSchema,
  WhatsAppIntegrationSchema,
  WhatsAppSetupResponseSchema,
  WhatsAppStatsSchema,
  InstagramSetupBodySchema,
  WhatsAppSetupBodySchema,
} from '@kesher/contracts';
import type { z } from 'zod';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';

export type Channel = 'telegram' | 'whatsapp' | 'instagram';
/** What the forms send (before the server's trimming and defaults). */
export type WhatsAppSetupBody = z.input<typeof WhatsAppSetupBodySchema>;
export type InstagramSetupBody = z.input<typeof InstagramSetupBodySchema>;

/** A 404 on an integration's lookup means it is not connected (spec part 2 §4): null, not an error. */
async function connectedOrNull<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const integrationKey = (channel: Channel, assistantId: number) => ['integration', channel, assistantId] as const;

export const telegramQuery = (assistantId: number) =>
  queryOptions({
    queryKey: integrationKey('telegram', assistantId),
    queryFn: () => connectedOrNull(() => api.get(`/assistants/${assistantId}/telegram`, TelegramIntegrationSchema)),
  });
export const whatsappQuery = (assistantId: number) =>
  queryOptions({
    queryKey: integrationKey('whatsapp', assistantId),
    queryFn: () => connectedOrNull(() => api.get(`/assistants/${assistantId}/whatsapp`, WhatsAppIntegrationSchema)),
  });
export const instagramQuery = (assistantId: number) =>
  queryOptions({
    queryKey: integrationKey('instagram', assistantId),
    queryFn: () => connectedOrNull(() => api.get(`/assistants/${assistantId}/instagram`, InstagramIntegrationSchema)),
  });

export const useTelegram = (assistantId: number | null) =>
  useQuery({ ...telegramQuery(assistantId ?? 0), enabled: assistantId !== null });
export const useWhatsApp = (assistantId: number | null) =>
  useQuery({ ...whatsappQuery(assistantId ?? 0), enabled: assistantId !== null });
export const useInstagram = (assistantId: number | null) =>
  useQuery({ ...instagramQuery(assistantId ?? 0), enabled: assistantId !== null });

export const useWhatsAppStats = (assistantId: number, enabled: boolean) =>
  useQuery({
    queryKey: ['whatsapp-stats', assistantId],
    queryFn: () => api.get(`/whatsapp/stats/${assistantId}`, WhatsAppStatsSchema),
    enabled,
  });
export const useInstagramStats = (assistantId: number, enabled: boolean) =>
  useQuery({
    queryKey: ['instagram-stats', assistantId],
    queryFn: () => api.get(`/instagram/stats/${assistantId}`, InstagramStatsSchema),
    enabled,
  });

export const setupTelegram = ({ assistantId, botToken }: { assistantId: number; botToken: string }) =>
  api.post(`/assistants/${assistantId}/telegram/setup`, TelegramSetupResponseSchema, { body: { bot_token: botToken } });
export const setupWhatsApp = ({ assistantId, body }: { assistantId: number; body: WhatsAppSetupBody }) =>
  api.post(`/assistants/${assistantId}/whatsapp/setup`, WhatsAppSetupResponseSchema, { body });
export const setupInstagram = ({ assistantId, body }: { assistantId: number; body: InstagramSetupBody }) =>
  api.post(`/assistants/${assistantId}/instagram/setup`, InstagramSetupResponseSchema, { body });
export const disconnect = ({ assistantId, channel }: { assistantId: number; channel: Channel }) =>
  api.delete(`/assistants/${assistantId}/${channel}`, IntegrationDisconnectedSchema);

/** Setups and disconnects refresh the integration and the assistants (the dashboard card's Telegram button). */
function useIntegrationMutation<Input extends { assistantId: number }, Output>(
  channel: Channel,
  mutationFn: (input: Input) => Promise<Output>,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_, { assistantId }) => {
      void queryClient.invalidateQueries({ queryKey: integrationKey(channel, assistantId) });
      void queryClient.invalidateQueries({ queryKey: ['assistants'] });
    },
  });
}

export const useSetupTelegram = () => useIntegrationMutation('telegram', setupTelegram);
export const useSetupWhatsApp = () => useIntegrationMutation('whatsapp', setupWhatsApp);
export const useSetupInstagram = () => useIntegrationMutation('instagram', setupInstagram);
export const useDisconnect = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: disconnect,
    onSuccess: (_, { assistantId, channel }) => {
      queryClient.setQueryData(integrationKey(channel, assistantId), null);
      void queryClient.invalidateQueries({ queryKey: ['assistants'] });
    },
  });
};
