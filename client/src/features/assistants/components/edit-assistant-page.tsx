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

export function EditAssistantPage({ assistantId }: { assistantId: number }) {
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
        <p className="form-error" role="alert">{detail || t('loadFailed')}</p>
      </section>
    );
  }

  return (
    <section className="page narrow">
      <h1>{t('editTitle')}</h1>
      <AssistantForm
        mode="edit"
        initial={toFormValues(assistant.data)}
        busy={update.isPending}
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
                web_crawler: { enabled: values.crawlerEnabled, website_url: url, max_pages: 50, max_depth: 5, delete_orphaned_pages: false },
                payment_processing: { enabled: values.salesMode, sales_prompt: values.salesPrompt },
              },
            },
            {
              onSuccess: (saved) => {
                notify.success(t('updated', { name: saved.name }));
                navigate(paths.dashboard);
              },
              onError: (error) => notify.error(localizedDetail(error) ?? `${t('updateFailed')} ${errorMessage(error, t)}`),
            },
          );
        }}
      />
    </section>
  );
}
