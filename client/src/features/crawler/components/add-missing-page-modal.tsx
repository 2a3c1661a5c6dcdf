import '../locales';
import type { PreviewFileDto } from '@kesher/contracts';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-error';
import { useFetchSingleUrl } from '../api/fetch-single-url';
import { websiteProblem } from '../crawler-rules';

const CLOSE_DELAY_MS = 1500;

interface Props {
  previewId: string;
  baseUrl: string;
  onAdded: (file: PreviewFileDto) => void;
  onClose: () => void;
}

/** Add Missing Page (spec §4): idle, adding, the success message, then it closes after 1.5 s. */
export function AddMissingPageModal({ previewId, baseUrl, onAdded, onClose }: Props) {
  const { t } = useTranslation('crawler');
  const [url, setUrl] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState(false);
  const fetchPage = useFetchSingleUrl();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const issue = websiteProblem(url);
    if (issue) return setProblem(t(issue === 'websiteRequired' ? 'urlRequired' : issue));
    setProblem(null);
    fetchPage.mutate(
      { url: url.trim(), baseUrl, previewId },
      {
        onSuccess: (answer) => {
          onAdded(answer.file_data);
          setAdded(true);
          timer.current = setTimeout(onClose, CLOSE_DELAY_MS);
        },
        onError: (error) => setProblem(errorMessage(error, t)),
      },
    );
  };

  return (
    <Modal title={t('addMissingTitle')} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="missing-url">{t('pageUrl')}</label>
          <input
            id="missing-url"
            type="url"
            dir="ltr"
            value={url}
            placeholder={baseUrl}
            onChange={(e) => {
              setUrl(e.target.value);
              // An error about what was typed goes with it: a cleared field shows none (issue 22 item 16).
              if (!e.target.value.trim()) setProblem(null);
            }}
            disabled={fetchPage.isPending || added}
            aria-invalid={problem ? true : undefined}
          />
        </div>
        {added ? (
          <p className="form-success" role="status">
            {t('pageAdded')}
          </p>
        ) : null}
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="modal-actions">
          <Button variant="secondary" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button type="submit" disabled={fetchPage.isPending || added || !url.trim()}>
            {fetchPage.isPending ? t('addingPage') : t('addPage')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
