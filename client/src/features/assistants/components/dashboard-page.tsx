import '../locales';
import type { AssistantDto } from '@kesher/contracts';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast-store';
import { useAssistants } from '../api/get-assistants';
import { AssistantCard, type CardAction } from './assistant-card';
import { DeleteAssistantModal } from './delete-assistant-modal';
import { ShareDialog } from './share-dialog';

// Chat History loads when first opened: its threads, inbox controls and their texts are not on the first load.
const ChatHistoryModal = lazy(() => import('./chat-history-modal').then((m) => ({ default: m.ChatHistoryModal })));
const CrawlerSoonModal = lazy(() => import('./chat-history-modal').then((m) => ({ default: m.CrawlerSoonModal })));

type Open = { action: CardAction; assistant: AssistantDto } | null;

interface Props {
  userName: string;
  /** Whether the browser is online (the route reads it): offline, the badge says so and the list is not shown. */
  online?: boolean;
  /** The files feature's modal, composed in by the route. */
  renderFilesModal: (
    assistant: AssistantDto,
    onClose: () => void,
    onShare: () => void,
    onCrawler: () => void,
  ) => ReactNode;
  /** The crawler feature's Smart Web Crawler dialog; without it the card's crawler button says "coming soon". */
  renderCrawlerModal?: (assistant: AssistantDto, onClose: () => void) => ReactNode;
}

/** The load error as spec §8 words it for the dashboard. */
function loadErrorKey(error: unknown): string {
  if (!(error instanceof ApiError)) return 'errors:unexpected';
  if (error.code === 'forbidden') return 'assistants:loadAccessDenied';
  return `errors:${error.code}`;
}

export function DashboardPage({ userName, online = true, renderFilesModal, renderCrawlerModal }: Props) {
  const { t } = useTranslation('assistants');
  const assistants = useAssistants();
  const [open, setOpen] = useState<Open>(null);
  const [params, setParams] = useSearchParams();
  // Offline (spec part 1 §2, issue 22 item 14): the cards are not shown — their buttons would all fail —
  // and the network error banner offers Try Again and Go to Login, as for any network error.
  const list = online ? (assistants.data ?? []) : [];

  // Returning from Google Drive (spec §2): the token is already kept by /oauth/callback, which checks it
  // is this tab's own flow (never read here from the address: a crafted link could plant one); clean the
  // address, open that assistant's files.
  const driveSuccess = params.get('google_drive_success') === 'true';
  const driveAssistant = Number(params.get('assistant_id'));
  useEffect(() => {
    if (!driveSuccess) return;
    notify.success(t('driveConnected'));
    const target = assistants.data?.find((a) => a.id === driveAssistant);
    if (target && params.get('open_modal')) setOpen({ action: 'files', assistant: target });
    if (assistants.data) setParams({}, { replace: true });
  }, [driveSuccess, assistants.data]);

  const close = () => setOpen(null);
  // A failed load is said even when the last-seen list is still on screen (from the cache): the owner
  // must know it may be out of date, and can try again.
  const errorKey = !online ? 'errors:network' : assistants.isError ? loadErrorKey(assistants.error) : null;

  return (
    <section className="page">
      <header className="dashboard-head">
        <div>
          <h1>{t('welcome', { name: userName })}</h1>
          <p className="muted">
            {assistants.data && online ? t('count', { count: list.length }) : null}{' '}
            {online ? (
              <span className="badge badge-ready">
                <span className="dot" aria-hidden="true" /> {t('online')}
              </span>
            ) : (
              <span className="badge badge-failed">
                <span className="dot dot-off" aria-hidden="true" /> {t('offline')}
              </span>
            )}
          </p>
        </div>
        <div className="dashboard-head-actions">
          <Link className="btn btn-secondary" to={paths.inbox}>
            {t('inbox')}
          </Link>
          <Link className="btn btn-primary" to={paths.createAssistant}>
            {t('create')}
          </Link>
        </div>
      </header>

      {errorKey ? (
        <div className="banner banner-error" role="alert">
          <p>{t(errorKey)}</p>
          <div className="banner-actions">
            <Button variant="secondary" onClick={() => assistants.refetch()}>
              {t('common:tryAgain')}
            </Button>
            {errorKey === 'errors:network' || errorKey === 'errors:unauthorized' ? (
              <Link className="btn btn-ghost" to={paths.login}>
                {t('common:goToLogin')}
              </Link>
            ) : null}
          </div>
        </div>
      ) : null}

      {!online ? null : assistants.isPending ? (
        <Spinner label={t('loading')} />
      ) : list.length === 0 && !(errorKey && !assistants.data) ? (
        <div className="empty-state card">
          <h2>{t('emptyTitle')}</h2>
          <p className="muted">{t('emptyText')}</p>
          <Link className="btn btn-primary" to={paths.createAssistant}>
            {t('emptyCta')}
          </Link>
        </div>
      ) : (
        <div className="card-grid">
          {list.map((assistant) => (
            <AssistantCard
              key={assistant.id}
              assistant={assistant}
              onAction={(action) => setOpen({ action, assistant })}
            />
          ))}
        </div>
      )}

      {open?.action === 'delete' ? <DeleteAssistantModal assistant={open.assistant} onClose={close} /> : null}
      {open?.action === 'share' ? <ShareDialog assistant={open.assistant} onClose={close} /> : null}
      {open?.action === 'history' ? (
        <Suspense fallback={null}>
          <ChatHistoryModal assistant={open.assistant} onClose={close} />
        </Suspense>
      ) : null}
      {open?.action === 'crawler' ? (
        renderCrawlerModal ? (
          renderCrawlerModal(open.assistant, close)
        ) : (
          <Suspense fallback={null}>
            <CrawlerSoonModal onClose={close} />
          </Suspense>
        )
      ) : null}
      {open?.action === 'files'
        ? renderFilesModal(
            open.assistant,
            close,
            () => setOpen({ action: 'share', assistant: open.assistant }),
            () => setOpen({ action: 'crawler', assistant: open.assistant }),
          )
        : null}
    </section>
  );
}
