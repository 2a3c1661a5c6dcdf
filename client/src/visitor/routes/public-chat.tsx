import { chatMessages } from '@kesher/contracts/rules/chat';
import { useMemo } from 'react';
import { startVisitorThread } from '@/lib/chat-core/chat-calls';
import { ChatScreen } from '@/features/chat/components/chat-screen';
import type { ChatConnection } from '@/features/chat/hooks/use-chat';
import { type PublicChatContext, PublicChatPage } from '@/features/public-chat/components/public-chat-page';
import { ApiError } from '@/lib/api-error';
import { DeleteConversation } from '@/features/privacy/components/delete-conversation';
import { paths } from '@/lib/paths';
import { navigate } from '../location';
import type { VisitorPageProps } from '../route-table';

/** A visitor's way into a conversation: the share link's token starts it, the session token keeps it. */
function useVisitorConnection({
  assistant,
  shareToken,
  sessionToken,
  rememberSession,
}: PublicChatContext): ChatConnection {
  return useMemo(
    () => ({
      access: sessionToken ? { kind: 'visitor', sessionToken } : null,
      async startThread() {
        if (!shareToken) throw new ApiError('forbidden', 403, chatMessages.invalidShareLink);
        const started = await startVisitorThread({
          assistantId: assistant.id,
          shareToken,
          sessionToken: sessionToken ?? undefined,
          channel: 'public_link',
        });
        const token = started.sessionToken ?? sessionToken;
        if (!token) throw new ApiError('unexpected', null, chatMessages.sessionTokenRequired);
        rememberSession(token);
        return { threadId: started.threadId, access: { kind: 'visitor', sessionToken: token } };
      },
    }),
    [assistant.id, shareToken, sessionToken, rememberSession],
  );
}

function VisitorChat({
  context,
  threadId,
  search,
}: {
  context: PublicChatContext;
  threadId: string | undefined;
  search: string;
}) {
  const connection = useVisitorConnection(context);
  const assistantId = context.assistant.id;
  return (
    <ChatScreen
      assistant={context.assistant}
      threadId={threadId}
      connection={connection}
      onThreadChange={(next) => navigate(`${paths.publicChat(assistantId, next)}${search}`, { replace: true })}
      // The visitor's own conversation, erased for good on request; the chat starts afresh after.
      headerExtra={
        <DeleteConversation
          threadId={threadId}
          sessionToken={context.sessionToken}
          onDeleted={() => navigate(`${paths.publicChat(assistantId)}${search}`, { replace: true })}
        />
      }
    />
  );
}

/** /public-chat/{assistantId}/{threadId?}: the visitor's chat (no New Chat, no way back to a dashboard). */
export function Component({ params, search }: VisitorPageProps) {
  const assistantId = params.assistantId ?? '';
  return (
    <PublicChatPage
      key={assistantId}
      assistantId={assistantId}
      search={search}
      renderChat={(context) => <VisitorChat context={context} threadId={params.threadId} search={search} />}
    />
  );
}
