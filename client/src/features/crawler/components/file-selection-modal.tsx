import '../locales';
import { crawlerLimits, type PreviewFileDto, type SmartCrawlPreviewResponse } from '@kesher/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import { useCrawlerPages } from '../api/get-crawler-pages';
import { useSmartCrawlCommit } from '../api/smart-crawl-commit';
import { presetSelection, truncateUrl } from '../crawler-rules';
import { AddMissingPageModal } from './add-missing-page-modal';

const CLOSE_DELAY_MS = 2000;

interface Props {
  assistant: { id: number; name: string };
  preview: SmartCrawlPreviewResponse;
  onClose: () => void;
  /** Runs 2 s after a successful commit (spec §4), then the modal is gone. */
  onDone: () => void;
}

/** File Selection (spec §2): choose which scanned pages become knowledge files, sales pages apart. */
export function FileSelectionModal({ assistant, preview, onClose, onDone }: Props) {
  const { t } = useTranslation('crawler');
  const [files, setFiles] = useState<PreviewFileDto[]>(preview.preview_files);
  const [addingPage, setAddingPage] = useState(false);
  const held = useCrawlerPages(assistant.id);
  const [selected, setSelected] = useState<Set<string> | null>(null);
  const commit = useSmartCrawlCommit();
  const [result, setResult] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // The preset waits for the pages the assistant holds (or their failure: then every page is chosen).
  const chosen = useMemo(
    () => selected ?? (held.isPending ? new Set<string>() : presetSelection(files, held.data ?? [])),
    [selected, held.isPending, held.data, files],
  );
  const sales = files.filter((file) => file.is_sales_page);
  const others = files.filter((file) => !file.is_sales_page);

  const toggle = (filename: string) => {
    const next = new Set(chosen);
    if (next.has(filename)) next.delete(filename);
    else next.add(filename);
    setSelected(next);
    setProblem(null);
  };

  // Spec §4: the added page goes to the top and is selected; an address already listed is ignored.
  const pageAdded = (file: PreviewFileDto) => {
    if (files.some((existing) => existing.url === file.url)) return;
    setFiles([file, ...files]);
    setSelected(new Set([...chosen, file.filename]));
  };

  const submit = () => {
    if (chosen.size === 0) return setProblem(t('selectPages'));
    setProblem(null);
    commit.mutate(
      {
        previewId: preview.preview_id,
        assistantId: assistant.id,
        filenames: files.filter((file) => chosen.has(file.filename)).map((file) => file.filename),
      },
      {
        onSuccess: (answer) => {
          const parts = [t('committed', { count: answer.committed_files })];
          if (answer.unchanged_files > 0) parts.push(t('unchanged', { count: answer.unchanged_files }));
          if (answer.failed_files.length > 0) parts.push(t('notAdded', { count: answer.failed_files.length }));
          const said = parts.join(' ');
          setResult(said);
          // Said where the owner is looking (the dialog's foot) and as a toast that outlives the dialog,
          // which closes 2 s later (spec §4).
          notify.success(said);
          timer.current = setTimeout(onDone, CLOSE_DELAY_MS);
        },
        onError: (error) => setProblem(`${t('commitFailed')}: ${errorMessage(error, t)}`),
      },
    );
  };

  return (
    <>
      <Modal
        title={t('selectTitle')}
        onClose={onClose}
        wide
        footer={
          <>
            {result ? (
              <p className="form-success crawl-select-result" role="status">
                {result}
              </p>
            ) : problem ? (
              <p className="form-error crawl-select-result" role="alert">
                {problem}
              </p>
            ) : (
              <span className="muted small crawl-select-count">{t('selected', { count: chosen.size })}</span>
            )}
            <Button variant="secondary" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button onClick={submit} disabled={chosen.size === 0 || commit.isPending || result !== null}>
              {commit.isPending ? t('committing') : t('commit')}
            </Button>
          </>
        }
      >
        {/* The address is isolated left-to-right (LRI…PDI, a <bdi dir="ltr"> in plain text): inside the Hebrew sentence its
            slash would otherwise jump to the front ("/http://…", issue 22 item 7). */}
        <p className="muted crawl-found" dir="auto">
          {t('found', { count: files.length, site: `\u2066${preview.crawl_result.base_url}\u2069` })}
        </p>
        <div className="banner-actions">
          <Button variant="ghost" onClick={() => setSelected(new Set(files.map((file) => file.filename)))}>
            {t('selectAll')}
          </Button>
          <Button variant="ghost" onClick={() => setSelected(new Set())}>
            {t('selectNone')}
          </Button>
          <Button variant="secondary" onClick={() => setAddingPage(true)}>
            {t('addMissing')}
          </Button>
        </div>
        {sales.length > 0 ? <PageList title={t('salesPages')} files={sales} chosen={chosen} onToggle={toggle} /> : null}
        {others.length > 0 ? (
          <PageList title={t('otherPages')} files={others} chosen={chosen} onToggle={toggle} />
        ) : null}
      </Modal>
      {addingPage ? (
        <AddMissingPageModal
          previewId={preview.preview_id}
          baseUrl={preview.crawl_result.base_url}
          onAdded={pageAdded}
          onClose={() => setAddingPage(false)}
        />
      ) : null}
    </>
  );
}

function PageList({
  title,
  files,
  chosen,
  onToggle,
}: {
  title: string;
  files: PreviewFileDto[];
  chosen: Set<string>;
  onToggle: (filename: string) => void;
}) {
  const { t } = useTranslation('crawler');
  const [all, setAll] = useState(false);
  const page = crawlerLimits.previewListPage;
  const shown = all ? files : files.slice(0, page);
  return (
    <section className="crawl-pages" aria-label={title}>
      <h3>{`${title} (${files.length})`}</h3>
      <ul className="file-list">
        {shown.map((file) => (
          <PageRow
            key={file.filename}
            file={file}
            checked={chosen.has(file.filename)}
            onToggle={() => onToggle(file.filename)}
          />
        ))}
      </ul>
      {files.length > page ? (
        <Button variant="ghost" onClick={() => setAll((value) => !value)}>
          {all ? t('showLess') : t('showMore', { count: files.length - page })}
        </Button>
      ) : null}
    </section>
  );
}

/** One page as a compact list row (spec §2): checkbox, title and address, its facts, and the two previews. */
function PageRow({ file, checked, onToggle }: { file: PreviewFileDto; checked: boolean; onToggle: () => void }) {
  const { t } = useTranslation('crawler');
  const [view, setView] = useState<'none' | 'text' | 'page'>('none');
  const id = `page-${file.filename}`;
  return (
    <li className="crawl-page">
      <input id={id} type="checkbox" checked={checked} onChange={onToggle} />
      <div className="crawl-page-main">
        {/* The title and address keep the page's side (right in Hebrew) while their own direction is isolated. */}
        <label htmlFor={id} className="crawl-page-title" title={file.title || file.filename}>
          <bdi>{file.title || file.filename}</bdi>
        </label>
        <span className="small crawl-page-url">
          <a href={file.url} target="_blank" rel="noopener noreferrer" dir="ltr" title={file.url}>
            {truncateUrl(file.url)}
          </a>
        </span>
        <span className="muted small crawl-page-meta">
          {file.sales_category ? (
            <span className="badge badge-ready">{t(`category_${file.sales_category}`)}</span>
          ) : null}
          <span>
            {t('relevance', { percent: Math.round(file.relevance_score * 100) })} ·{' '}
            {t('sizeKb', { size: file.size_kb })}
          </span>
          {file.detection_reason ? (
            <span dir="auto" title={file.detection_reason}>
              {' '}
              · {file.detection_reason}
            </span>
          ) : null}
        </span>
      </div>
      <div className="crawl-page-actions">
        <Button
          variant="ghost"
          aria-pressed={view === 'text'}
          onClick={() => setView(view === 'text' ? 'none' : 'text')}
        >
          {view === 'text' ? t('hidePreview') : t('previewText')}
        </Button>
        <Button
          variant="ghost"
          aria-pressed={view === 'page'}
          onClick={() => setView(view === 'page' ? 'none' : 'page')}
        >
          {view === 'page' ? t('hidePreview') : t('previewPage')}
        </Button>
      </div>
      {view === 'text' ? (
        <pre className="crawl-page-text" dir="auto">
          {file.content || file.preview || t('noText')}
        </pre>
      ) : null}
      {view === 'page' ? (
        <iframe
          className="crawl-page-frame"
          src={file.url}
          title={t('previewFrame', { title: file.title || file.filename })}
          sandbox=""
          referrerPolicy="no-referrer"
        />
      ) : null}
    </li>
  );
}
