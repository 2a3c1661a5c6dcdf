import { useEffect, useMemo, useRef } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { useLazyModule } from '@/lib/lazy-module';
import { useLanguage, useTexts } from '@/lib/texts';
import type { EmbedInitProblem } from '../api/embed-assistant';
import { conversationStorage, createConversationStore } from '../conversation-store';
import { useEmbedSession } from '../hooks/use-embed-session';
import { EMBED_NAMESPACE, embedLocales } from '../locales';
import { closeMessage, isFramed, postToParent } from '../parent-window';
import { EmbedChat } from './embed-chat';

function problemText(
  problem: EmbedInitProblem,
  t: (key: string) => string,
): { message: string; suggestion: string | null } {
  switch (problem.kind) {
    case 'noToken':
      return { message: t('noShareToken'), suggestion: null };
    case 'server':
      return { message: t('serverError'), suggestion: null };
    case 'connection':
      return { message: t('connectionError'), suggestion: null };
    case 'detail':
      // Already in the page's language (useEmbedSession translates it: server-words.ts).
      return { message: problem.message, suggestion: problem.suggestion };
    default:
      return { message: t('unknownError'), suggestion: null };
  }
}

const NO_TEXTS = { en: {}, he: {} };

/** Escape inside the chat closes the widget around it (unless a dialog of the page is open). */
function useEscapeClosesWidget() {
  useEffect(() => {
    if (!isFramed()) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !document.querySelector('dialog[open]')) postToParent(closeMessage());
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}

/**
 * /embed/{shareToken}?sessionToken= — the chat inside the website widget's frame (spec part 2 §2, §4):
 * "Initializing chat...", then the chat, an "Assistant not found" panel with the hint, or the
 * initialization-failed panel with the message, troubleshooting tips and Try Again.
 */
export function EmbedPage({ shareToken, search }: { shareToken: string; search: string }) {
  const language = useLanguage();
  // Only the page's language is downloaded; after a switch the texts shown stay until the new ones arrive.
  const loaded = useLazyModule(embedLocales[language]);
  const shown = useRef(loaded);
  if (loaded) shown.current = loaded;
  const locale = loaded ?? shown.current;
  const bundles = useMemo(() => (locale ? { en: locale, he: locale } : null), [locale]);
  const { t } = useTexts(EMBED_NAMESPACE, bundles ?? NO_TEXTS);
  const querySessionToken = useMemo(() => new URLSearchParams(search).get('sessionToken')?.trim() || null, [search]);
  const storeReady = useMemo(() => conversationStorage().then((storage) => createConversationStore(storage)), []);
  const { state, retry } = useEmbedSession(shareToken, querySessionToken, storeReady);
  useEscapeClosesWidget();

  if (!bundles || state.status === 'loading') {
    return (
      <main id="main" className="embed embed-status">
        <Spinner label={bundles ? t('initializing') : ''} />
      </main>
    );
  }
  if (state.status === 'failed' && state.problem.kind === 'notFound') {
    return (
      <main id="main" className="embed embed-status">
        <section className="card embed-panel" role="alert">
          <h1>{t('notFound')}</h1>
          <p>{t('notFoundHint')}</p>
        </section>
      </main>
    );
  }
  if (state.status === 'failed') {
    const { message, suggestion } = problemText(state.problem, t);
    return (
      <main id="main" className="embed embed-status">
        <section className="card embed-panel" aria-labelledby="embed-failed-title">
          <h1 id="embed-failed-title">{t('initFailedTitle')}</h1>
          <p className="form-error" role="alert">
            {message}
          </p>
          {suggestion ? <p>{suggestion}</p> : null}
          <h2>{t('tipsTitle')}</h2>
          <ul>
            <li>{t('tipConnection')}</li>
            <li>{t('tipReload')}</li>
            <li>{t('tipOwner')}</li>
          </ul>
          <button type="button" className="btn btn-primary" onClick={retry}>
            {t('tryAgain')}
          </button>
        </section>
      </main>
    );
  }
  return (
    <EmbedChat
      key={state.conversation.threadId}
      assistant={state.assistant}
      shareToken={shareToken}
      initial={state.conversation}
      store={state.store}
      t={t}
      language={language}
    />
  );
}
