import { Icon } from '@/components/ui/icon';
import '../locales';
import { type FormEvent, type ReactNode, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { serverText } from '@/lib/server-texts';
import { notify } from '@/lib/toast-store';
import '../file-failure-texts';
import { useDeleteFile } from '../api/delete-file';
import { acceptAttribute, fileProblem, formatBytes } from '../file-rules';
import { useFiles } from '../api/get-files';
import { useUploadFile } from '../api/upload-file';
import { QaPanel } from '@/features/curated-answers/components/qa-panel';
import '@/features/curated-answers/locales';

interface Props {
  assistant: { id: number; name: string };
  onClose: () => void;
  onShare?: () => void;
  /** Opens the crawler feature's Smart Web Crawler dialog (composed by the dashboard route). */
  onCrawler?: () => void;
  /** The Google Drive picker (the drive feature, composed by the dashboard route). */
  drivePicker?: ReactNode;
}

/** Manage Files (spec §2): upload, list and delete an assistant's knowledge files. */
export function ManageFilesModal({ assistant, onClose, onShare, onCrawler, drivePicker }: Props) {
  const { t, i18n } = useTranslation('files');
  const files = useFiles(assistant.id);
  const upload = useUploadFile();
  const remove = useDeleteFile();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // The assistant's knowledge has two tabs: its files, and the owner's own questions and answers (issue 26).
  const [tab, setTab] = useState<'files' | 'qa'>('files');
  const { t: tQa } = useTranslation('qa');

  const choose = (file: File | null) => {
    setChosen(file);
    const issue = file ? fileProblem(file) : null;
    setProblem(issue ? t(issue) : null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return setProblem(t('noFile'));
    if (fileProblem(chosen)) return;
    upload.mutate(
      { assistantId: assistant.id, file: chosen },
      {
        onSuccess: (file) => {
          notify.success(t('uploaded', { name: file.filename }));
          choose(null);
          if (input.current) input.current.value = '';
        },
        onError: (error) => notify.error(`${t('errorUploadingFile')}: ${errorMessage(error, t)}`),
      },
    );
  };

  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });

  return (
    <Modal
      title={t('title', { name: assistant.name })}
      onClose={onClose}
      wide
      footer={
        onShare || onCrawler ? (
          <>
            {onCrawler ? (
              <Button variant="secondary" onClick={onCrawler}>
                {t('smartCrawler')}
              </Button>
            ) : null}
            {onShare ? (
              <Button variant="secondary" onClick={onShare}>
                {t('shareAssistant')}
              </Button>
            ) : null}
          </>
        ) : null
      }
    >
      <div role="tablist" className="tabs">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'files'}
          className={`btn ${tab === 'files' ? 'btn-secondary' : 'btn-ghost'}`}
          onClick={() => setTab('files')}
        >
          {tQa('tabFiles')}
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'qa'}
          className={`btn ${tab === 'qa' ? 'btn-secondary' : 'btn-ghost'}`}
          onClick={() => setTab('qa')}
        >
          {tQa('tabQa')}
        </button>
      </div>
      {tab === 'qa' ? (
        <QaPanel assistant={assistant} />
      ) : (
        <>
          <form onSubmit={submit} className="upload-form">
            <h3>{t('upload')}</h3>
            <div className="field">
              <label htmlFor="knowledge-file">{t('chooseFile')}</label>
              <input
                id="knowledge-file"
                ref={input}
                type="file"
                accept={acceptAttribute}
                onChange={(e) => choose(e.target.files?.[0] ?? null)}
                aria-describedby="knowledge-file-hint"
                aria-invalid={problem ? true : undefined}
              />
              <p id="knowledge-file-hint" className="field-hint">
                {t('types')}
              </p>
              {problem ? (
                <p className="field-error" role="alert">
                  {problem}
                </p>
              ) : null}
            </div>
            <Button type="submit" disabled={upload.isPending || !!problem}>
              {upload.isPending ? t('uploading') : t('uploadButton')}
            </Button>
          </form>

          <h3>{t('listTitle')}</h3>
          {files.isPending ? (
            <Spinner label={t('loading')} />
          ) : files.isError && !files.data ? (
            <p className="form-error" role="alert">{`${t('errorLoadingFiles')}: ${errorMessage(files.error, t)}`}</p>
          ) : files.data && files.data.length > 0 ? (
            <ul className="file-list">
              {files.data.map((file) => (
                <li key={file.id}>
                  <div>
                    <strong dir="auto">{file.filename}</strong>
                    <span className="muted small">
                      {formatBytes(file.bytes)} ·{' '}
                      {t('uploadedAt', { date: dateFormat.format(new Date(file.created_at * 1000)) })}
                    </span>
                    {/* Why it failed, as the server said it (in the page's language): "Failed" alone leaves the owner guessing. */}
                    {file.status === 'failed' && file.status_reason ? (
                      <span className="field-error small" id={`file-reason-${file.id}`} dir="auto">
                        {serverText(file.status_reason)}
                      </span>
                    ) : null}
                  </div>
                  <span
                    className={`badge badge-${file.status}`}
                    aria-describedby={
                      file.status === 'failed' && file.status_reason ? `file-reason-${file.id}` : undefined
                    }
                  >
                    {t(`status_${file.status}`)}
                  </span>
                  <Button
                    variant="ghost"
                    aria-label={t('deleteFile', { name: file.filename })}
                    disabled={remove.isPending}
                    onClick={() =>
                      remove.mutate(
                        { assistantId: assistant.id, fileId: file.id },
                        {
                          onSuccess: () => notify.success(t('fileDeleted')),
                          onError: (error) => notify.error(`${t('errorDeletingFile')}: ${errorMessage(error, t)}`),
                        },
                      )
                    }
                  >
                    <Icon name="trash" />
                  </Button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">{t('empty')}</p>
          )}
          <h3>{t('driveTitle')}</h3>
          {drivePicker ?? <p className="muted">{t('driveSoon')}</p>}
        </>
      )}
    </Modal>
  );
}
