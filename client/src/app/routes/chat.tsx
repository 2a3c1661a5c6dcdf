import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { useAssistants } from '@/features/assistants/api/get-assistants';
import type { ChatAccess } from '@/features/chat/api/chat-access';
import { startOwnerThread } from '@/features/chat/api/threads';
import { ChatScreen } from '@/features/chat/components/chat-screen';
import type { ChatConnection } from '@/features/chat/hooks/use-chat';
import { CHAT_NAMESPACE, chatLocales } from '@/features/chat/locales';
import { paths } from '@/lib/paths';
import { useTexts } from '@/lib/texts';
import { notify } from '@/lib/toast-store';

const OWNER: ChatAccess = { kind: 'owner' };

/**
 * /chat/{assistantId}/{threadId?} (spec §2): the assistant comes from the owner's own list; one that is
 * not there is reported and the owner goes back to the dashboard. The address follows the conversation.
 */
export function Component() {
  const { assistantId = '', threadId } = useParams();
  const navigate = useNavigate();
  const { t: common } = useTranslation();
  const { t } = useTexts(CHAT_NAMESPACE, chatLocales);
  const assistants = useAssistants();
  const id = Number(assistantId);
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
      startThread: async () => ({ threadId: (await startOwnerThread(id)).threadId, access: OWNER }),
    }),
    [id],
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
      assistant={{ id: found.id, name: found.name, description: found.description, externalId: found.openai_assistant_id }}
      threadId={threadId}
      connection={connection}
      onThreadChange={(next) => navigate(paths.chat(found.id, next), { replace: true })}
      onBack={() => navigate(paths.dashboard)}
      allowNewChat
    />
  );
}
