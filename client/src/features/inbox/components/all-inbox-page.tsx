import '../locales';
import './all-inbox.css';
import type { InboxEntryDto } from '@kesher/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { useAllInbox } from '../api/inbox';
import { ChannelBadge, ConversationControls } from './conversation-controls';

/** The channels customers write from (the owner's own chats, `app`, are not customer conversations). */
export const CUSTOMER_CHANNELS = ['embed', 'public_link', 'telegram', 'whatsapp', 'instagram'] as const;
type Filter = 'all' | (typeof CUSTOMER_CHANNELS)[number];

/** The customer conversations of the answer, with the channel filter applied, newest activity first (as the server sends them). */
export function customerConversations(entries: readonly InboxEntryDto[], filter: Filter): InboxEntryDto[] {
  return entries.filter((entry) => entry.channel !== 'app' && (filter === 'all' || entry.channel === filter));
}

/**
 * /inbox, the one inbox across every assistant (issue 22 item 16): each customer conversation — the
 * widget's, share links', Telegram's, WhatsApp's, Instagram's — with its assistant, its channel, who wrote
 * and what last; opening it, taking it over and replying as in an assistant's Chat History.
 */
export function AllInboxPage() {
  const { t, i18n } = useTranslation('inbox');
  const inbox = useAllInbox();
  const [filter, setFilter] = useState<Filter>('all');
  const [open, setOpen] = useState<string | null>(null);
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  let body;
  if (inbox.isPending) body = <Spinner label={t('loading')} />;
  else if (inbox.isError) {
    body = (
      <div className="banner banner-error" role="alert">
        <p>{`${t('loadFailed')}: ${errorMessage(inbox.error, t)}`}</p>
        <Button variant="secondary" onClick={() => void inbox.refetch()}>
          {t('common:tryAgain')}
        </Button>
      </div>
    );
  } else {
    const shown = customerConversations(inbox.data.data, filter);
    body =
      shown.length === 0 ? (
        <p className="muted empty-state">{t('empty')}</p>
      ) : (
        <ul className="all-inbox-list">
          {shown.map((entry) => (
            <li key={entry.thread_id} className="card all-inbox-row" data-channel={entry.channel}>
              <div className="all-inbox-head">
                <ChannelBadge channel={entry.channel} />
                <span className="all-inbox-assistant" dir="auto">
                  {entry.assistant_name}
                </span>
                {entry.taken_over ? <span className="badge badge-pending">{t('takenOver')}</span> : null}
                <time className="muted small" dateTime={new Date(entry.last_message_at * 1000).toISOString()}>
                  {when.format(new Date(entry.last_message_at * 1000))}
                </time>
              </div>
              <p className="all-inbox-who">
                <bdi>{entry.contact_name ?? entry.title}</bdi>
              </p>
              {/* A conversation is titled from its first message: a one-message conversation says it once. */}
              {entry.last_message && entry.last_message !== (entry.contact_name ?? entry.title) ? (
                <p className="muted all-inbox-last" dir="auto">
                  {entry.last_message}
                </p>
              ) : null}
              <div className="all-inbox-actions">
                <Link className="btn btn-secondary" to={paths.chat(entry.assistant_id, entry.thread_id)}>
                  {t('openConversation')}
                </Link>
                <Button
                  variant="ghost"
                  aria-expanded={open === entry.thread_id}
                  onClick={() => setOpen(open === entry.thread_id ? null : entry.thread_id)}
                >
                  {t('answerHere')}
                </Button>
              </div>
              {open === entry.thread_id ? <ConversationControls entry={entry} /> : null}
            </li>
          ))}
        </ul>
      );
  }

  return (
    <section className="page all-inbox">
      <h1>{t('title')}</h1>
      <p className="muted">{t('subtitle')}</p>
      <label className="field all-inbox-filter">
        <span>{t('filter')}</span>
        <select value={filter} onChange={(event) => setFilter(event.currentTarget.value as Filter)}>
          <option value="all">{t('allChannels')}</option>
          {CUSTOMER_CHANNELS.map((channel) => (
            <option key={channel} value={channel}>
              {t(`channel_${channel}`)}
            </option>
          ))}
        </select>
      </label>
      {body}
    </section>
  );
}
