import { InboxSchema, OwnerReplySchema, TakeoverStateSchema } from '@kesher/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const inboxKey = (assistantId: number) => ['inbox', assistantId] as const;

/** GET /inbox?assistant_id=: the assistant's conversations from every channel, with who wrote and whether the owner took over. */
export const getInbox = (assistantId: number, signal?: AbortSignal) =>
  api.get(`/inbox?assistant_id=${assistantId}&limit=200`, InboxSchema, { signal });

/** The one inbox across every assistant (GET /inbox without assistant_id): the newest 200 conversations. */
export const allInboxKey = ['inbox', 'all'] as const;
export const getAllInbox = (signal?: AbortSignal) => api.get('/inbox?limit=200', InboxSchema, { signal });
export const useAllInbox = () =>
  useQuery({ queryKey: allInboxKey, queryFn: ({ signal }) => getAllInbox(signal), staleTime: 0 });

/** A takeover or a reply changes the assistant's list and the list across all assistants. */
const refreshLists = (queryClient: ReturnType<typeof useQueryClient>, assistantId: number) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: inboxKey(assistantId) }),
    queryClient.invalidateQueries({ queryKey: allInboxKey }),
  ]);

export const useInbox = (assistantId: number) =>
  useQuery({ queryKey: inboxKey(assistantId), queryFn: ({ signal }) => getInbox(assistantId, signal), staleTime: 0 });

const takeover = ({ threadId, takeOver }: { threadId: string; takeOver: boolean; assistantId: number }) =>
  api.post(`/threads/${encodeURIComponent(threadId)}/${takeOver ? 'takeover' : 'handback'}`, TakeoverStateSchema, {
    body: {},
  });

export const useTakeover = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeover,
    onSuccess: (_, { assistantId }) => refreshLists(queryClient, assistantId),
  });
};

const ownerReply = ({ threadId, content }: { threadId: string; content: string; assistantId: number }) =>
  api.post(`/threads/${encodeURIComponent(threadId)}/owner-reply`, OwnerReplySchema, { body: { content } });

export const useOwnerReply = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ownerReply,
    onSuccess: (_, { assistantId }) => refreshLists(queryClient, assistantId),
  });
};
