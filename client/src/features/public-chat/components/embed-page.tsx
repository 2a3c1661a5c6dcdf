import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { useTexts } from '@/lib/texts';
import { useSharedAssistant } from '../api/shared-assistant';
import { publicLocales } from '../locales';

/** /embed/{token}: the page inside the website widget's frame. */
export function EmbedPage({ shareToken }: { shareToken: string }) {
  const { t } = useTexts('public', publicLocales);
  const state = useSharedAssistant(shareToken);
  if (state.status === 'loading') return <main id="main" className="standalone"><Spinner label={t('initializing')} /></main>;
  if (state.status === 'error') {
    const notFound = state.error instanceof ApiError && state.error.status === 404;
    return (
      <main id="main" className="standalone">
        <h1>{notFound ? t('notFound') : t('startFailed')}</h1>
        {notFound ? <p className="muted">{t('notFoundHint')}</p> : null}
      </main>
    );
  }
  const { name, description } = state.assistant;
  return (
    <main id="main" className="standalone chat-frame">
      <header className="chat-head embed-head">
        <span className="avatar" aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>
        <h1 dir="auto">{name}</h1>
        <span className="badge badge-ready"><span className="dot" aria-hidden="true" /> {t('online')}</span>
      </header>
      <section className="card welcome">
        <h2 dir="auto">{t('hi', { name })}</h2>
        <p dir="auto">{description || t('invite')}</p>
        <p className="muted">{t('chatSoon')}</p>
      </section>
    </main>
  );
}
