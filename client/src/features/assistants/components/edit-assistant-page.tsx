import '../locales';
import type { AssistantDto } from '@kesher/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast-store';
import { useAssistant } from '../api/get-assistant';
import { useUpdateAssistant } from '../api/update-assistant';
import type { AssistantFormValues } from '../assistant-form-rules';
import { type StartCrawler, startCrawlerStep } from '../create-flow';
import { AssistantForm } from './assistant-form';

export function toFormValues(a: AssistantDto): AssistantFormValues {
  return {
    name: a.name,
    description: a.description,
    instructions: a.instructions,
    websiteUrl: a.web_crawler.website_url ?? a.website_url ?? '',
    crawlerEnabled: a.web_crawler.enabled,
    salesMode: a.payment_processing.enabled,
    salesPrompt: a.payment_processing.sales_prompt,
  };
}

/**
 * Spec §2/§4 edit form: turning the crawler on with a website (or pointing it at another website) starts
 * a crawl; saving an unchanged crawler does not crawl again, and turning it off saves the flag with sales
 * mode forced off (the form's rule) and starts nothing.
 */
export function crawlToStart(before: AssistantFormValues, after: AssistantFormValues): string | null {
  const url = after.websiteUrl.trim();
  if (!after.crawlerEnabled || !url) return null;
  return before.crawlerEnabled && before.websiteUrl.trim() === url ? null : url;
}

interface Props {
  assistantId: number;
  /** The crawler feature's start (the create flow's, with the edit defaults); without it turning the crawler on warns. */
  startCrawler?: StartCrawler;
  /** Keeps the started crawl for the dashboard's progress panel (session storage). */
  onCrawlStarted?: (crawlId: string, url: string) => void;
}

export function EditAssistantPage({ assistantId, startCrawler, onCrawlStarted }: Props) {
  const { t } = useTranslation('assistants');
  const navigate = useNavigate();
  const assistant = useAssistant(assistantId);
  const update = useUpdateAssistant();

  if (assistant.isPending) return <Spinner label={t('common:loading')} />;
  if (!assistant.data) {
    const detail = localizedDetail(assistant.error);
    return (
      <section className="page narrow">
        <h1>{t('editTitle')}</h1>
        <p className="form-error" role="alert">
          {detail || t('loadFailed')}
        </p>
      </section>
    );
  }

  const initial = toFormValues(assistant.data);
  const saved = async (name: string, values: AssistantFormValues) => {
    notify.success(t('updated', { name }));
    const url = crawlToStart(initial, values);
    const crawlId = url
      ? await startCrawlerStep(assistantId, url, startCrawler ?? null, () => notify.warning(t('warnCrawlerEdit')))
      : null;
    // As in the create flow: the dashboard opens with the progress panel following the crawl.
    if (crawlId && url) onCrawlStarted?.(crawlId, url);
    navigate(paths.dashboard);
  };

  return (
    <section className="page narrow">
      <h1>{t('editTitle')}</h1>
      <AssistantForm
        mode="edit"
        initial={initial}
        busy={update.isPending || update.isSuccess}
        onSubmit={(values) => {
          const url = values.websiteUrl.trim() || null;
          update.mutate(
            {
              id: assistantId,
              body: {
                name: values.name,
                description: values.description,
                instructions: values.instructions,
                website_url: url,
                web_crawler: {
                  enabled: values.crawlerEnabled,
                  website_url: url,
                  max_pages: 50,
                  max_depth: 5,
                  delete_orphaned_pages: false,
                },
                payment_processing: { enabled: values.salesMode, sales_prompt: values.salesPrompt },
              },
            },
            {
              onSuccess: (answer) => void saved(answer.name, values),
              onError: (error) =>
                notify.error(localizedDetail(error) ?? `${t('updateFailed')} ${errorMessage(error, t)}`),
            },
          );
        }}
      />
    </section>
  );
}
