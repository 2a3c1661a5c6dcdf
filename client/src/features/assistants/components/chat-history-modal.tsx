import type { AssistantDto } from '@kesher/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
// The thread calls and texts belong to the chat feature; the history list is the dashboard's view of them.
import type { ChatThread } from '@/features/chat/api/chat-types';
import { deleteThread, listThreads, renameThread, threadKey } from '@/features/chat/api/threads';
import { CHAT_NAMESPACE, chatLocales } from '@/features/chat/locales';
// The one inbox's controls (channel, takeover, the owner's reply) belong to the inbox feature.
import type { InboxEntryDto } from '@kesher/contracts';
import { useInbox } from '@/features/inbox/api/inbox';
import { ChannelBadge, ConversationControls } from '@/features/inbox/components/conversation-controls';
// When retention erases each conversation belongs to the privacy feature.
import { KeptUntil } from '@/features/privacy/components/kept-until';
import { paths } from '@/lib/paths';
import { type Translate, useTexts } from '@/lib/texts';
import { notify } from '@/lib/toast-store';

export const threadsKey = (assistantId: number) => ['threads', assistantId] as const;

type RowMode = 'view' | 'rename' | 'confirmDelete';

function ThreadRow({
  thread,
  assistantId,
  t,
  language,
  inbox,
}: {
  thread: ChatThread;
  assistantId: number;
  t: Translate;
  language: string;
  inbox?: InboxEntryDto;
}) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<RowMode>('view');
  const [title, setTitle] = useState(thread.title);
  const [error, setError] = useState<string | null>(null);
  const shownTitle = thread.title.trim() || t('history.untitled');

  const rename = useMutation({
    mutationFn: (next: string) => renameThread(thread.id, next),
    onSuccess: (renamed) => {
      queryClient.setQueryData<ChatThread[]>(threadsKey(assistantId), (list) =>
        list?.map((item) => (item.id === thread.id ? { ...item, title: renamed.title } : item)),
      );
      void queryClient.invalidateQueries({ queryKey: threadsKey(assistantId) });
      setMode('view');
      notify.success(t('history.threadRenamed'));
    },
    onError: () => notify.error(t('history.errorRenamingThread')),
  });
  const remove = useMutation({
    mutationFn: () => deleteThread(thread.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: threadsKey(assistantId) });
      notify.success(t('history.threadDeleted'));
    },
    onError: () => {
      setMode('view');
      notify.error(t('history.errorDeletingThread'));
    },
  });

  const save = (event: FormEvent) => {
    event.preventDefault();
    const next = title.trim();
    if (!next) return setError(t('history.titleRequired'));
    setError(null);
    rename.mutate(next);
  };

  const deleting = remove.isPending || remove.isSuccess;
  const created = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    thread.createdAt,
  );

  return (
    <li className={`thread-row${deleting ? ' thread-row-busy' : ''}`} aria-busy={deleting || undefined}>
      {mode === 'rename' ? (
        <form className="thread-rename" onSubmit={save} noValidate>
          <label htmlFor={`${id}-title`}>{t('history.renameLabel')}</label>
          <div className="input-row">
            <input
              id={`${id}-title`}
              value={title}
              dir="auto"
              autoFocus
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(event) => setTitle(event.currentTarget.value)}
            />
            <Button type="submit" disabled={rename.isPending}>
              {t('history.save')}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                setMode('view');
                setTitle(thread.title);
                setError(null);
              }}
            >
              {t('history.cancel')}
            </Button>
          </div>
          {error ? (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </form>
      ) : (
        <div className="thread-main">
          <span className="thread-title" dir="auto">
            {shownTitle}
          </span>{' '}
          {thread.isPublic ? <span className="badge badge-public">{t('history.public')}</span> : null}{' '}
          {thread.channel !== 'app' ? <ChannelBadge channel={inbox?.channel ?? thread.channel} /> : null}
          <span className="muted small thread-date">{t('history.startedAt', { date: created })}</span>
          <KeptUntil assistantId={assistantId} threadId={thread.id} />
          {inbox && mode === 'view' ? <ConversationControls entry={inbox} /> : null}
        </div>
      )}
      {mode === 'confirmDelete' ? (
        <div className="thread-confirm" role="group" aria-label={t('history.rowActions', { title: shownTitle })}>
          <span>{t('history.confirmDelete')}</span>
          <Button variant="danger" disabled={deleting} onClick={() => remove.mutate()}>
            {deleting ? t('history.deleting') : t('history.confirm')}
          </Button>
          <Button variant="ghost" disabled={deleting} onClick={() => setMode('view')}>
            {t('history.cancel')}
          </Button>
        </div>
      ) : mode === 'view' ? (
        <div className="thread-actions" role="group" aria-label={t('history.rowActions', { title: shownTitle })}>
          <Button
            onClick={() => {
              // The chat knows at once whose conversation it opens (a visitor's is read-only).
              queryClient.setQueryData(threadKey(thread.id), thread);
              navigate(paths.chat(assistantId, thread.id));
            }}
          >
            {t('history.resume')}
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              setTitle(thread.title);
              setMode('rename');
            }}
          >
            {t('history.rename')}
          </Button>
          <Button variant="secondary" onClick={() => setMode('confirmDelete')}>
            {t('history.delete')}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/**
 * Chat History (spec §2, §4): the assistant's conversations — the owner's and visitors' public ones —
 * with resume, inline rename (a title is required) and delete after a confirmation. Beyond the spec it is
 * one inbox: each customer conversation names its channel (widget, share link, Telegram, WhatsApp,
 * Instagram) and can be taken over, answered by the owner through that channel, and handed back.
 */
export function ChatHistoryModal({ assistant, onClose }: { assistant: AssistantDto; onClose: () => void }) {
  const { t: common } = useTranslation();
  const { t, language } = useTexts(CHAT_NAMESPACE, chatLocales);
  const inbox = useInbox(assistant.id);
  const inboxOf = new Map((inbox.data?.data ?? []).map((entry) => [entry.thread_id, entry]));
  const threads = useQuery({
    queryKey: threadsKey(assistant.id),
    queryFn: ({ signal }) => listThreads(assistant.id, signal),
    // Conversations change outside this list (a chat just started, a visitor's): ask again on every opening.
    staleTime: 0,
  });
  return (
    <Modal title={t('history.title', { name: assistant.name })} onClose={onClose} wide>
      {threads.isPending ? (
        <Spinner label={t('history.loading')} />
      ) : threads.isError ? (
        <div className="banner banner-error" role="alert">
          <p>{t('history.errorLoadingThreads')}</p>
          <Button variant="secondary" onClick={() => void threads.refetch()}>
            {common('common:tryAgain')}
          </Button>
        </div>
      ) : threads.data.length === 0 ? (
        <p className="empty-state muted">{t('history.empty')}</p>
      ) : (
        <ul className="thread-list">
          {threads.data.map((thread) => (
            <ThreadRow
              key={thread.id}
              thread={thread}
              assistantId={assistant.id}
              t={t}
              language={language}
              inbox={inboxOf.get(thread.id)}
            />
          ))}
        </ul>
      )}
    </Modal>
  );
}

export function CrawlerSoonModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('assistants');
  return (
    <Modal title={t('crawlerTitle')} onClose={onClose}>
      <p>{t('common:comingSoonTitle')}</p>
      <p className="muted">{t('crawlerSoon')}</p>
    </Modal>
  );
}
