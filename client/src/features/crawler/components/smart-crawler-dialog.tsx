import '../locales';
import { type CrawlerConfigDto, type SmartCrawlPreviewResponse } from '@kesher/contracts';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { serverText } from '@/lib/server-texts';
import { useCreateCrawler } from '../api/create-crawler';
import { useDeleteCrawler } from '../api/delete-crawler';
import { useCrawlerConfig } from '../api/get-crawler-config';
import { useSmartCrawlPreview } from '../api/smart-crawl-preview';
import { crawlSession } from '../crawl-session';
import { websiteProblem } from '../crawler-rules';
import { CrawlerSettingsModal } from './crawler-settings-modal';
import { FileSelectionModal } from './file-selection-modal';

const INTERVALS = ['none', '4h', '8h', '24h', '3d', '1w'] as const;
const FEATURES = ['featureDiscovery', 'featureLinks', 'featureScoring', 'featureExtraction'] as const;

interface Props {
  assistant: { id: number; name: string; website_url?: string | null };
  onClose: () => void;
}

/**
 * Smart Web Crawler (spec §2): the assistant's configuration with Crawl Again (and, to fix or drop a
 * site, Change website and Remove website), or the form that scans the site, saves it once pages were
 * found, and hands them to the File Selection modal.
 */
export function SmartCrawlerDialog({ assistant, onClose }: Props) {
  const { t } = useTranslation('crawler');
  const config = useCrawlerConfig(assistant.id);
  const [preview, setPreview] = useState<SmartCrawlPreviewResponse | null>(null);
  const [managing, setManaging] = useState(false);
  // "Change website": the form again, filled with the saved site, over the saved configuration.
  const [changing, setChanging] = useState(false);

  if (managing) return <CrawlerSettingsModal assistant={assistant} onClose={() => setManaging(false)} />;
  if (preview) return <FileSelectionModal assistant={assistant} preview={preview} onClose={onClose} onDone={onClose} />;
  const saved = config.data;
  return (
    <Modal title={t('title', { name: assistant.name })} onClose={onClose}>
      {config.isPending ? (
        <Spinner label={t('loadingConfig')} />
      ) : saved && !changing ? (
        <ExistingConfig
          config={saved}
          onClose={onClose}
          onManage={() => setManaging(true)}
          onChange={() => setChanging(true)}
        />
      ) : (
        <CrawlerForm
          assistant={assistant}
          initial={saved ? { url: saved.website_url, interval: saved.crawl_interval } : null}
          onCancel={saved ? () => setChanging(false) : onClose}
          onPreview={setPreview}
        />
      )}
    </Modal>
  );
}

function ExistingConfig({
  config,
  onClose,
  onManage,
  onChange,
}: {
  config: CrawlerConfigDto;
  onClose: () => void;
  onManage: () => void;
  onChange: () => void;
}) {
  const { t, i18n } = useTranslation('crawler');
  const start = useCreateCrawler();
  const remove = useDeleteCrawler();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // A site that could not be scanned (or is no longer wanted) can be removed: no schedule keeps a dead address.
  const removeSite = () =>
    remove.mutate(
      { configId: config.id, assistantId: config.assistant_id },
      {
        onSuccess: () => {
          notify.success(t('siteRemoved'));
          onClose();
        },
        onError: (error) => setProblem(errorMessage(error, t, 'crawler:removeFailed')),
      },
    );
  const crawlAgain = () =>
    start.mutate(
      {
        assistant_id: config.assistant_id,
        website_url: config.website_url,
        crawl_interval: config.crawl_interval,
        max_pages: config.max_pages,
        max_depth: config.max_depth,
        delete_orphaned_pages: config.delete_orphaned_pages,
        start_crawl: true,
      },
      {
        onSuccess: (data) => {
          if (data.crawl_id) crawlSession.start(data.crawl_id, data.website_url);
          onClose();
        },
        onError: (error) => setProblem(errorMessage(error, t, 'crawler:configureFailed')),
      },
    );
  const date = config.last_crawled
    ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
        new Date(config.last_crawled),
      )
    : t('never');
  return (
    <>
      <dl className="crawler-config">
        <dt>{t('websiteUrl')}</dt>
        <dd dir="ltr">
          <a href={config.website_url} target="_blank" rel="noopener noreferrer">
            {config.website_url}
          </a>
        </dd>
        <dt>{t('frequency')}</dt>
        <dd>
          {t(`interval_${config.crawl_interval}`)}
          {/* The plan ended before a scheduled recrawl came due: the server says why, in the page's language. */}
          {config.schedule_paused_reason ? (
            <p className="form-note" role="status">
              {serverText(config.schedule_paused_reason)}
            </p>
          ) : null}
        </dd>
        <dt>{t('lastCrawled')}</dt>
        <dd>{date}</dd>
        <dt>{t('filesAdded')}</dt>
        <dd>{config.files_count}</dd>
      </dl>
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {confirming ? (
        <div className="banner banner-error" role="alertdialog" aria-label={t('removeSite')}>
          <p>{t('removeConfirm', { site: config.website_url })}</p>
          <div className="banner-actions">
            <Button variant="danger" onClick={removeSite} disabled={remove.isPending}>
              {t('removeYes')}
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              {t('cancel')}
            </Button>
          </div>
        </div>
      ) : (
        <div className="modal-actions modal-actions-wrap">
          <Button variant="secondary" onClick={onClose}>
            {t('close')}
          </Button>
          <Button variant="secondary" onClick={() => setConfirming(true)}>
            {t('removeSite')}
          </Button>
          <Button variant="secondary" onClick={onChange}>
            {t('changeSite')}
          </Button>
          <Button variant="secondary" onClick={onManage}>
            {t('managePages')}
          </Button>
          <Button onClick={crawlAgain} disabled={start.isPending}>
            {start.isPending ? t('crawlStarting') : t('crawlAgain')}
          </Button>
        </div>
      )}
    </>
  );
}

function CrawlerForm({
  assistant,
  initial,
  onCancel,
  onPreview,
}: {
  assistant: Props['assistant'];
  initial: { url: string; interval: (typeof INTERVALS)[number] } | null;
  onCancel: () => void;
  onPreview: (preview: SmartCrawlPreviewResponse) => void;
}) {
  const { t } = useTranslation('crawler');
  const [url, setUrl] = useState(initial?.url ?? assistant.website_url ?? '');
  const [interval, setInterval] = useState<(typeof INTERVALS)[number]>(initial?.interval ?? '24h');
  const [problem, setProblem] = useState<string | null>(null);
  const [found, setFound] = useState<number | null>(null);
  const configure = useCreateCrawler();
  const scan = useSmartCrawlPreview((message) => setFound(message.pages_processed));
  const busy = configure.isPending || scan.isPending;

  // The scan first, the configuration only once it found pages (issue 22 item 8): a site that cannot be
  // reached is said, the form stays for the owner to fix the address, and no configuration with the dead
  // address is saved on a schedule.
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const issue = websiteProblem(url);
    if (issue) return setProblem(t(issue));
    setProblem(null);
    setFound(null);
    const websiteUrl = url.trim();
    let preview: SmartCrawlPreviewResponse;
    try {
      preview = await scan.mutateAsync({ websiteUrl, assistantId: assistant.id });
    } catch (error) {
      return setProblem(errorMessage(error, t, 'crawler:configureFailed'));
    }
    if (preview.preview_files.length === 0) return setProblem(t('noPages'));
    try {
      await configure.mutateAsync({
        assistant_id: assistant.id,
        website_url: websiteUrl,
        crawl_interval: interval,
        start_crawl: false,
      });
    } catch (error) {
      return setProblem(errorMessage(error, t, 'crawler:configureFailed'));
    }
    onPreview(preview);
  };

  return (
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="crawler-url">{t('websiteUrl')}</label>
        <input
          id="crawler-url"
          type="url"
          dir="ltr"
          value={url}
          placeholder={t('websitePlaceholder')}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={problem ? true : undefined}
          disabled={busy}
        />
      </div>
      <div className="field">
        <label htmlFor="crawler-interval">{t('frequency')}</label>
        <select
          id="crawler-interval"
          value={interval}
          onChange={(e) => setInterval(e.target.value as (typeof INTERVALS)[number])}
          disabled={busy}
        >
          {INTERVALS.map((value) => (
            <option key={value} value={value}>
              {t(`interval_${value}`)}
            </option>
          ))}
        </select>
      </div>
      <h3>{t('featuresTitle')}</h3>
      <ul className="feature-list">
        {FEATURES.map((key) => (
          <li key={key}>{t(key)}</li>
        ))}
      </ul>
      <p className="muted small">{t('limits')}</p>
      {busy ? (
        <p className="muted" role="status">
          {t('scanning')}
          {found ? <span className="scan-found"> {t('scanProgress', { count: found })}</span> : null}
        </p>
      ) : null}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="modal-actions">
        <Button variant="secondary" onClick={onCancel}>
          {t('cancel')}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t('settingUp') : t('start')}
        </Button>
      </div>
    </form>
  );
}
