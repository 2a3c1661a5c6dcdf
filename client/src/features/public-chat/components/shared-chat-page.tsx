import '../locales';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { useSharedAssistant } from '../api/get-shared-assistant';
import { sharedAssistantStore } from '../shared-assistant-store';

/** /shared-chat/{token}: resolves the link, then continues at the public chat keeping the query string. */
export function SharedChatPage() {
  const { t } = useTranslation('public');
  const { shareToken = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const assistant = useSharedAssistant(shareToken);
  useEffect(() => {
    if (!assistant.data) return;
    sharedAssistantStore.save(assistant.data);
    navigate(`${paths.publicChat(assistant.data.id)}${search}`, { replace: true });
  }, [assistant.data, navigate, search]);
  return (
    <main id="main" className="standalone">
      {assistant.isError ? (
        <p className="banner banner-error" role="alert">
          {assistant.error instanceof ApiError && assistant.error.status === 404 ? t('invalidLink') : t('startFailed')}
        </p>
      ) : (
        <Spinner label={t('loadingAssistant')} />
      )}
    </main>
  );
}
