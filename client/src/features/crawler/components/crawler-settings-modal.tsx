import '../locales';
import { crawlerLimits, type CrawledUrlDto } from '@kesher/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { serverText } from '@/lib/server-texts';
import { notify } from '@/lib/toast-store';
import { type CrawledUrlsFilter, useCrawledUrls } from '../api/get-crawled-urls';
import { useCrawledUrlContent } from '../api/get-crawled-url-content';
import { useCrawlerStats } from '../api/get-crawler-stats';
import { useDeleteCrawledUrls } from '../api/delete-crawled-urls';
import { useToggleCrawledUrl } from '../api/toggle-crawled-url';
import { truncateUrl } from '../crawler-rules';

const FILTERS = ['all', 'enabled', 'disabled'] as const;

const formatSize = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

interface Props {
  assistant: { id: number; name: string };
  onClose: () => void;
}

/**
 * Crawler Settings (spec §2): the stats bar, search and filters, the crawled URLs 20 to a page with
 * their training status, turning a page off or on, its file, and bulk delete after a confirmation.
 */
export function CrawlerSettingsModal({ assistant, onClose }: Props) {
  const { t, i18n } = useTranslation('crawler');
  const [filter, setFilter] = useState<CrawledUrlsFilter>({ search: '', enabled: 'all', page: 0 });
  // Spec §2: a status filter is shown and has no effect on the list.
  const [status, setStatus] = useState('all');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [viewing, setViewing] = useState<CrawledUrlDto | null>(null);
  const urls = useCrawledUrls(assistant.id, filter);
  const stats = useCrawlerStats(assistant.id);
  const toggle = useToggleCrawledUrl();
  const remove = useDeleteCrawledUrls();
  const rows = urls.data?.urls ?? [];
  const pages = Math.max(1, Math.ceil((urls.data?.total ?? 0) / crawlerLimits.settingsPageSize));
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  const numbers = new Intl.NumberFormat(i18n.language);

  const change = (next: Partial<CrawledUrlsFilter>) => {
    setFilter((current) => ({ ...current, page: 0, ...next }));
    setChosen(new Set());
  };
  const pick = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const deleteChosen = () =>
    remove.mutate(
      { assistantId: assistant.id, urlIds: [...chosen] },
      {
        onSuccess: (answer) => {
          notify.success(t('deletedCount', { count: answer.deleted_count }));
          setChosen(new Set());
          setConfirming(false);
        },
        onError: (error) => notify.error(`${t('deleteFailed')}: ${errorMessage(error, t)}`),
      },
    );

  if (viewing) return <FileViewer url={viewing} onClose={() => setViewing(null)} />;
  return (
    <Modal title={t('settingsTitle', { name: assistant.name })} onClose={onClose} wide>
      {stats.data ? (
        <dl className="crawl-stats-bar">
          <div>
            <dt>{t('statsPages')}</dt>
            <dd>{numbers.format(stats.data.total_urls)}</dd>
          </div>
          <div>
            <dt>{t('statsDisabled')}</dt>
            <dd>{numbers.format(stats.data.disabled_urls)}</dd>
          </div>
          <div>
            <dt>{t('statsCharacters')}</dt>
            <dd>{numbers.format(stats.data.total_characters)}</dd>
          </div>
          <div>
            <dt>{t('statsSize')}</dt>
            <dd>{formatSize(stats.data.total_size_bytes)}</dd>
          </div>
          <div>
            <dt>{t('statsLastCrawl')}</dt>
            <dd>{stats.data.last_crawl_time ? dates.format(new Date(stats.data.last_crawl_time)) : t('never')}</dd>
          </div>
        </dl>
      ) : null}
      <div className="crawl-filters">
        <div className="field">
          <label htmlFor="crawl-search">{t('search')}</label>
          <input
            id="crawl-search"
            type="search"
            value={filter.search}
            placeholder={t('searchPlaceholder')}
            onChange={(e) => change({ search: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor="crawl-enabled">{t('enabledFilter')}</label>
          <select
            id="crawl-enabled"
            value={filter.enabled}
            onChange={(e) => change({ enabled: e.target.value as CrawledUrlsFilter['enabled'] })}
          >
            {FILTERS.map((value) => (
              <option key={value} value={value}>
                {t(`filter_${value}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="crawl-status">{t('statusFilter')}</label>
          <select id="crawl-status" value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="all">{t('statusAll')}</option>
            <option value="trained">{t('training_trained')}</option>
            <option value="failed">{`${t('training_failed')} / ${t('training_pending')}`}</option>
          </select>
        </div>
      </div>

      {chosen.size > 0 ? (
        confirming ? (
          <div
            className="banner banner-error"
            role="alertdialog"
            aria-label={t('confirmDelete', { count: chosen.size })}
          >
            <p>{t('confirmDelete', { count: chosen.size })}</p>
            <div className="banner-actions">
              <Button variant="danger" onClick={deleteChosen} disabled={remove.isPending}>
                {t('confirmYes')}
              </Button>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                {t('cancel')}
              </Button>
            </div>
          </div>
        ) : (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            {t('deleteSelected', { count: chosen.size })}
          </Button>
        )
      ) : null}

      {urls.isPending ? (
        <Spinner label={t('loadingConfig')} />
      ) : urls.isError && !urls.data ? (
        <p className="form-error" role="alert">{`${t('loadSettingsFailed')}: ${errorMessage(urls.error, t)}`}</p>
      ) : rows.length === 0 ? (
        <p className="muted">{t('noUrls')}</p>
      ) : (
        <div className="table-scroll">
          <table className="crawl-table">
            <thead>
              <tr>
                <th>
                  <input
                    type="checkbox"
                    aria-label={t('selectPage')}
                    checked={rows.every((row) => chosen.has(row.id))}
                    onChange={(e) =>
                      setChosen(
                        e.target.checked
                          ? new Set([...chosen, ...rows.map((row) => row.id)])
                          : new Set([...chosen].filter((id) => !rows.some((row) => row.id === id))),
                      )
                    }
                  />
                </th>
                <th>{t('colUrl')}</th>
                <th>{t('colTitle')}</th>
                <th>{t('colCharacters')}</th>
                <th>{t('colSize')}</th>
                <th>{t('colLastCrawled')}</th>
                <th>{t('colStatus')}</th>
                <th>{t('colActions')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} className={row.is_enabled ? undefined : 'row-disabled'}>
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('selectRow', { url: row.source_url })}
                      checked={chosen.has(row.id)}
                      onChange={() => pick(row.id)}
                    />
                  </td>
                  <td dir="ltr">
                    <a href={row.source_url} target="_blank" rel="noopener noreferrer" title={row.source_url}>
                      {truncateUrl(row.source_url)}
                    </a>
                  </td>
                  <td dir="auto">{row.page_title ?? ''}</td>
                  <td>{numbers.format(row.character_count)}</td>
                  <td>{formatSize(row.file_size)}</td>
                  <td>{row.last_crawled_at ? dates.format(new Date(row.last_crawled_at)) : ''}</td>
                  <td>
                    <span
                      className={`badge badge-${row.training_status === 'trained' ? 'ready' : row.training_status === 'failed' ? 'failed' : 'pending'}`}
                    >
                      {t(`training_${row.training_status}`)}
                    </span>
                  </td>
                  <td className="row-actions">
                    <Button
                      variant="ghost"
                      disabled={toggle.isPending}
                      onClick={() =>
                        toggle.mutate(
                          { urlId: row.id, assistantId: assistant.id },
                          { onError: (error) => notify.error(`${t('toggleFailed')}: ${errorMessage(error, t)}`) },
                        )
                      }
                    >
                      {row.is_enabled ? t('disable') : t('enable')}
                    </Button>
                    <Button variant="ghost" onClick={() => setViewing(row)}>
                      {t('viewFile')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {pages > 1 ? (
        <nav className="pager" aria-label={t('pageOf', { page: filter.page + 1, pages })}>
          <Button
            variant="secondary"
            disabled={filter.page === 0}
            onClick={() => setFilter((f) => ({ ...f, page: f.page - 1 }))}
          >
            {t('previous')}
          </Button>
          <span>{t('pageOf', { page: filter.page + 1, pages })}</span>
          <Button
            variant="secondary"
            disabled={filter.page + 1 >= pages}
            onClick={() => setFilter((f) => ({ ...f, page: f.page + 1 }))}
          >
            {t('next')}
          </Button>
        </nav>
      ) : null}
    </Modal>
  );
}

function FileViewer({ url, onClose }: { url: CrawledUrlDto; onClose: () => void }) {
  const { t } = useTranslation('crawler');
  const content = useCrawledUrlContent(url.id);
  const answer = content.data;
  return (
    <Modal title={url.page_title ?? truncateUrl(url.source_url)} onClose={onClose} wide>
      {content.isPending ? (
        <Spinner label={t('loadingContent')} />
      ) : content.isError ? (
        <p className="form-error" role="alert">{`${t('contentFailed')}: ${errorMessage(content.error, t)}`}</p>
      ) : answer && 'error' in answer ? (
        <p className="form-error" role="alert">
          {serverText(answer.error)}
        </p>
      ) : (
        <pre className="crawl-page-text" dir="auto">
          {answer?.content}
        </pre>
      )}
    </Modal>
  );
}
