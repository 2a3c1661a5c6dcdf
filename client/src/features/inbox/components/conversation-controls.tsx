import '../locales';
import type { InboxEntryDto } from '@kesher/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { useOwnerReply, useTakeover } from '../api/inbox';

/** The channel a conversation came through, named (one inbox: widget, share link, Telegram, WhatsApp, Instagram). */
export function ChannelBadge({ channel }: { channel: string }) {
  const { t } = useTranslation('inbox');
  return (
    <span className={`badge badge-channel badge-${channel}`}>{t(`channel_${channel}`, { defaultValue: channel })}</span>
  );
}

/**
 * One customer conversation's controls in Chat History: who wrote and what last, Take over (the assistant
 * stops answering it), the owner's reply — sent back through the same channel — and Hand back.
 */
export function ConversationControls({ entry }: { entry: InboxEntryDto }) {
  const { t, i18n } = useTranslation('inbox');
  const id = useId();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const takeover = useTakeover();
  const reply = useOwnerReply();
  const language = i18n.language as 'en' | 'he';
  const reason = (error: unknown) => localizedDetail(error, language) ?? errorMessage(error, t);
  if (entry.channel === 'app') return null;

  const toggle = () =>
    takeover.mutate(
      { threadId: entry.thread_id, takeOver: !entry.taken_over, assistantId: entry.assistant_id },
      {
        onSuccess: (state) => notify.info(state.taken_over ? t('tookOver') : t('handedBack')),
        onError: (error) =>
          notify.error(`${entry.taken_over ? t('handBackFailed') : t('takeOverFailed')}: ${reason(error)}`),
      },
    );

  const send = (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content) return setProblem(t('replyRequired'));
    setProblem(null);
    reply.mutate(
      { threadId: entry.thread_id, content, assistantId: entry.assistant_id },
      {
        onSuccess: () => {
          setText('');
          notify.success(t('sent'));
        },
        onError: (error) => setProblem(`${t('replyFailed')}: ${reason(error)}`),
      },
    );
  };

  return (
    <div className="conversation-controls">
      {entry.contact_name || entry.last_message ? (
        <p className="muted small" dir="auto">
          {entry.contact_name ? <strong>{entry.contact_name}</strong> : null}
          {entry.contact_name && entry.last_message ? ' · ' : null}
          {entry.last_message ? <span>{t('lastMessage', { text: entry.last_message.slice(0, 120) })}</span> : null}
        </p>
      ) : null}
      <div className="conversation-controls-row">
        {entry.taken_over ? <span className="badge badge-pending">{t('takenOver')}</span> : null}
        <Button
          variant="secondary"
          onClick={toggle}
          disabled={takeover.isPending}
          title={entry.taken_over ? undefined : t('takeOverHint')}
        >
          {entry.taken_over ? t('handBack') : t('takeOver')}
        </Button>
      </div>
      {entry.taken_over ? (
        <form className="owner-reply" onSubmit={send} noValidate>
          <label htmlFor={`${id}-reply`} className="visually-hidden">
            {t('reply')}
          </label>
          <textarea
            id={`${id}-reply`}
            rows={2}
            dir="auto"
            placeholder={t('reply')}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            maxLength={4000}
          />
          <Button type="submit" disabled={reply.isPending}>
            {reply.isPending ? t('sending') : t('send')}
          </Button>
          {problem ? (
            <p className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}
