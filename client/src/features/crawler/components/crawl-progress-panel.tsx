import '../locales';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { serverText } from '@/lib/server-texts';
import { completionCounts } from '../completion-summary';
import { crawlSession } from '../crawl-session';
import { truncateUrl } from '../crawler-rules';
import { useActiveCrawl } from '../hooks/use-active-crawl';
import { useCrawlProgress } from '../hooks/use-crawl-progress';

const CLOSE_AFTER_COMPLETE_MS = 3000;
const KNOWN = new Set(['starting', 'crawling', 'completed', 'error']);
const ICONS: Record<string, string> = {
  starting: '⏳',
  crawling: '🔄',
  completed: '✅',
  error: '⚠️',
  processing: '⏳',
};

/**
 * Crawl progress panel (spec §2, §4): fixed at the bottom right, minimizable, fed live by the progress
 * socket. It shows whichever crawl session storage names, so a reload brings it back. On completion the
 * callback runs (the dashboard reloads its assistants) and the panel closes 3 s later.
 */
export function CrawlProgressPanel({ onCompleted }: { onCompleted?: () => void }) {
  const active = useActiveCrawl();
  if (!active) return null;
  return (
    <Panel key={active.crawlId} crawlId={active.crawlId} websiteUrl={active.websiteUrl} onCompleted={onCompleted} />
  );
}

function Panel({
  crawlId,
  websiteUrl,
  onCompleted,
}: {
  crawlId: string;
  websiteUrl: string;
  onCompleted?: () => void;
}) {
  const { t } = useTranslation('crawler');
  const { progress, connection, problem, gone } = useCrawlProgress(crawlId);
  const queryClient = useQueryClient();
  // A remembered crawl the server does not know (any more, or for this owner): nothing to show.
  useEffect(() => {
    if (gone) crawlSession.clear();
  }, [gone]);
  const [minimized, setMinimized] = useState(false);
  const completedOnce = useRef(false);
  const status = progress
    ? progress.type === 'error'
      ? 'error'
      : KNOWN.has(progress.status)
        ? progress.status
        : 'processing'
    : 'starting';
  const finished = status === 'completed' || status === 'error';

  useEffect(() => {
    if (status !== 'completed' || completedOnce.current) return;
    completedOnce.current = true;
    // The crawler dialog's counts and "last crawled" moved with this crawl (issue 22 item 12).
    void queryClient.invalidateQueries({ queryKey: ['crawler-config'] });
    void queryClient.invalidateQueries({ queryKey: ['crawler-pages'] });
    void queryClient.invalidateQueries({ queryKey: ['crawled-urls'] });
    onCompleted?.();
    const timer = setTimeout(() => crawlSession.clear(), CLOSE_AFTER_COMPLETE_MS);
    return () => clearTimeout(timer);
  }, [status, onCompleted, queryClient]);

  const percent = Math.max(0, Math.min(100, Math.round(progress?.progress_percentage ?? 0)));
  const site = websiteUrl ? truncateUrl(websiteUrl) : null;
  // The completion summary is said in the page's language from its numbers; other texts go through the catalogue.
  const counts = progress ? completionCounts(progress) : null;
  const summary = counts
    ? [
        t('committed', { count: counts.added }),
        counts.unchanged > 0 ? t('unchanged', { count: counts.unchanged }) : null,
        counts.removed > 0 ? t('removed', { count: counts.removed }) : null,
        counts.notAdded > 0 ? t('notAdded', { count: counts.notAdded }) : null,
        counts.reason ? serverText(counts.reason) : null,
      ]
        .filter(Boolean)
        .join(' ')
    : null;
  const serverMessage = summary ?? (progress?.message ? serverText(progress.message) : null);

  return (
    <aside className={`crawl-panel${minimized ? ' crawl-panel-min' : ''}`} aria-label={t('progressLabel')}>
      <header className="crawl-panel-head">
        <span aria-hidden="true">{ICONS[status]}</span>
        <strong dir="auto">{site ? t('progressTitle', { site }) : t('progressTitleNoSite')}</strong>
        <span className={`badge conn conn-${connection}`} role="status">
          {t(connection)}
        </span>
        <button
          type="button"
          className="icon-btn"
          onClick={() => setMinimized((value) => !value)}
          aria-label={minimized ? t('expand') : t('minimize')}
          aria-expanded={!minimized}
        >
          {minimized ? '▴' : '▾'}
        </button>
      </header>
      {minimized ? (
        <progress className="crawl-progress" max={100} value={percent} aria-label={t('progressLabel')} />
      ) : (
        <div className="crawl-panel-body">
          <p>
            <span>{t(`status_${status}`)}</span> · <span>{`${percent}%`}</span>
          </p>
          <progress className="crawl-progress" max={100} value={percent} aria-label={t('progressLabel')} />
          {progress?.current_url && !finished ? (
            <p
              className="small"
              dir="ltr"
              title={progress.current_url}
            >{`${t('currentUrl')}: ${truncateUrl(progress.current_url)}`}</p>
          ) : null}
          <dl className="crawl-stats">
            <dt>{t('expectedPages')}</dt>
            <dd>{progress?.estimated_total ?? 0}</dd>
            <dt>{t('crawledPages')}</dt>
            <dd>{progress?.pages_processed ?? 0}</dd>
            <dt>{t('addedPages')}</dt>
            <dd>{progress?.pages_linked_to_assistant ?? 0}</dd>
            <dt>{t('duration')}</dt>
            <dd>{t('seconds', { count: Math.round(progress?.duration ?? 0) })}</dd>
          </dl>
          {serverMessage ? (
            <p
              className={status === 'error' ? 'form-error' : 'muted small'}
              role={status === 'error' ? 'alert' : undefined}
              dir="auto"
            >
              {serverMessage}
            </p>
          ) : null}
          {problem && !finished ? (
            <p className="form-error" role="alert">
              {t(problem)}
            </p>
          ) : null}
          {finished ? (
            <Button onClick={() => crawlSession.clear()}>{status === 'completed' ? t('done') : t('close')}</Button>
          ) : null}
        </div>
      )}
    </aside>
  );
}
