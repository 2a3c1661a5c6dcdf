import '../locales';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast-store';
import { useCreateAssistant } from '../api/create-assistant';
import { emptyForm } from '../assistant-form-rules';
import { CREATE_REDIRECT_MS, type CreateFlowDeps, type CreateStep, runCreateFlow, stepProgress } from '../create-flow';
import { AssistantForm } from './assistant-form';

interface Props {
  upload: (assistantId: number, file: File) => Promise<unknown>;
  fileInput: (onFile: (file: File | null) => void) => ReactNode;
  /** The crawler feature's start (spec §4 create flow); without it the flow warns that the crawler did not start. */
  startCrawler?: (assistantId: number, url: string) => Promise<{ crawlId: string | null }>;
  /** Keeps the started crawl for the dashboard's progress panel (session storage). */
  onCrawlStarted?: (crawlId: string, url: string) => void;
  /** The Google Drive section and its step (spec part 1 §4), composed in from the drive feature. */
  drive?: { input: ReactNode } & NonNullable<CreateFlowDeps['drive']>;
  /** Where a document load goes (Google's consent screen; tests replace it). */
  leaveTo?: (url: string) => void;
}

export function CreateAssistantPage({
  upload,
  fileInput,
  startCrawler,
  onCrawlStarted,
  drive,
  leaveTo = (url) => window.location.assign(url),
}: Props) {
  const { t } = useTranslation('assistants');
  const navigate = useNavigate();
  const create = useCreateAssistant();
  const [step, setStep] = useState<CreateStep | null>(null);

  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (step !== 'done' || leaving) return;
    const timer = setTimeout(() => navigate(paths.dashboard), CREATE_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [step, navigate, leaving]);

  const progress =
    step === null ? undefined : (
      <div className="create-progress" role="status" aria-live="polite">
        <progress max={100} value={stepProgress[step]} aria-label={t('progressLabel')} />
        <p>
          {stepProgress[step]}% — {t(`step_${step}`)}
        </p>
      </div>
    );

  return (
    <section className="page narrow">
      <h1>{t('createTitle')}</h1>
      <AssistantForm
        mode="create"
        initial={emptyForm}
        busy={step !== null}
        progress={progress}
        fileInput={fileInput}
        driveInput={drive?.input}
        onSubmit={(values, file) => {
          runCreateFlow(values, file, {
            create: (body) => create.mutateAsync(body),
            upload,
            drive,
            startCrawler: startCrawler ?? null,
            onStep: setStep,
            onWarning: (key, vars) => notify.warning(t(key, vars)),
          })
            .then((result) => {
              notify.success(t('created', { name: values.name }));
              if (result.crawlId) onCrawlStarted?.(result.crawlId, values.websiteUrl.trim());
              // Connecting Google Drive for the new assistant: Google's consent screen, whose return opens
              // the assistant's files with the picker on the dashboard (and the crawl's panel, if one runs).
              if (result.redirectTo) {
                setLeaving(true);
                return leaveTo(result.redirectTo);
              }
              // Spec §4: with a crawl under way, the panel opens on the dashboard at once (no 500 ms wait).
              if (result.crawlId) navigate(paths.dashboard);
            })
            .catch((error) => {
              setStep(null);
              notify.error(`${t('createFailed')}: ${errorMessage(error, t)}`);
            });
        }}
      />
    </section>
  );
}
