import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useAssistants } from '@/features/assistants/api/get-assistants';
import type { ChatAccess } from '@/lib/chat-core/chat-access';
import type { ChatThread } from '@/features/chat/api/chat-types';
import { getThread, startOwnerThread, threadKey } from '@/features/chat/api/threads';
import { ChatScreen, type MessageNote } from '@/features/chat/components/chat-screen';
import type { ChatConnection } from '@/features/chat/hooks/use-chat';
import { CHAT_NAMESPACE, chatLocales } from '@/features/chat/locales';
import { paths } from '@/lib/paths';
import { useTexts } from '@/lib/texts';
import { notify } from '@/lib/toast-store';

const OWNER: ChatAccess = { kind: 'owner' };
/** What automation did for an answer: its own chunk, loaded once the conversation has a saved answer. */
const AutomationNote = lazy(() => import('@/features/automation/components/automation-note'));
/** "Improve this answer" (issue 26): the owner's correction becomes a curated answer. */
const ImproveAnswer = lazy(() => import('@/features/curated-answers/components/improve-answer'));

/**
 * /chat/{assistantId}/{threadId?} (spec §2): the assistant comes from the owner's own list; one that is
 * not there is reported and the owner goes back to the dashboard. The address follows the conversation.
 * A visitor's conversation (opened from Chat History) is shown read-only.
 */
export function Component() {
  const { assistantId = '', threadId } = useParams();
  const navigate = useNavigate();
  const { t: common } = useTranslation();
  const { t } = useTexts(CHAT_NAMESPACE, chatLocales);
  const assistants = useAssistants();
  const queryClient = useQueryClient();
  const id = Number(assistantId);
  // Whose conversation this is: Chat History and New Chat put the answer in the cache before coming here.
  const thread = useQuery({
    queryKey: threadKey(threadId ?? ''),
    queryFn: ({ signal }) => getThread(threadId!, signal),
    enabled: Boolean(threadId),
    staleTime: Infinity,
    retry: false,
  });
  const readOnly =
    !threadId || thread.isError ? false : thread.data ? (thread.data.isPublic ? 'visitor' : false) : 'unknown';
  const found = assistants.data?.find((a) => a.id === id);
  // A cached list may predate an assistant created a moment ago: decide only once the list is fresh.
  const missing = !found && assistants.isSuccess && !assistants.isFetching;
  const failed = !found && assistants.isError && !assistants.isFetching;

  useEffect(() => {
    if (!missing && !failed) return;
    notify.error(t(missing ? 'assistantNotFound' : 'errorLoadingAssistant'));
    navigate(paths.dashboard, { replace: true });
  }, [missing, failed, navigate, t]);

  const connection = useMemo<ChatConnection>(
    () => ({
      access: OWNER,
      startThread: async () => {
        const started = await startOwnerThread(id);
        const own: ChatThread = {
          id: started.threadId,
          title: '',
          createdAt: Date.now(),
          isPublic: false,
          assistantId: id,
          channel: 'app',
        };
        queryClient.setQueryData(threadKey(started.threadId), own);
        return { threadId: started.threadId, access: OWNER };
      },
    }),
    [id, queryClient],
  );

  // The owner (never a visitor) sees under each answer which workflow fired for it and which actions ran.
  const automationNote = useCallback<MessageNote>(
    (message, fresh) =>
      threadId && message.runId ? (
        <Suspense fallback={null}>
          <AutomationNote threadId={threadId} runId={message.runId} fresh={fresh} />
          <ImproveAnswer assistantId={id} threadId={threadId} messageId={message.id} />
        </Suspense>
      ) : null,
    [threadId, id],
  );

  if (!found) {
    return (
      <main id="main" className="standalone">
        <Spinner label={common('common:loading')} />
      </main>
    );
  }
  return (
    <ChatScreen
      key={found.id}
      assistant={{
        id: found.id,
        name: found.name,
        description: found.description,
        externalId: found.openai_assistant_id,
      }}
      threadId={threadId}
      connection={connection}
      onThreadChange={(next) => navigate(paths.chat(found.id, next), { replace: true })}
      onBack={() => navigate(paths.dashboard)}
      allowNewChat
      readOnly={readOnly}
      messageNote={automationNote}
    />
  );
}
