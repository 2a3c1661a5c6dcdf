import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { EMBED_MESSAGES, embedUrl, readEmbedMessage } from '../../../../widget/options';

/** The embed page answers within this time or the panel says "Unable to load chat" (spec §8). */
export const CHAT_LOAD_TIMEOUT_MS = 20_000;

interface Props {
  shareToken: string;
  sessionToken: string | null;
  title: string;
  onTyping: (typing: boolean) => void;
  onNavigate: (url: string) => void;
  onClose: () => void;
}

/**
 * The chat panel's content: the real embed page (same origin) in a frame, listened to as widget.js
 * listens — only messages from this origin and this frame. The owner's page does not navigate on a
 * redirect; the page is told instead, so it can show where a visitor would go.
 */
export function ChatFrame({ shareToken, sessionToken, title, onTyping, onNavigate, onClose }: Props) {
  const { t } = useTranslation('widgetPreview');
  const ref = useRef<HTMLIFrameElement>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [attempt, setAttempt] = useState(0);
  const handlers = useRef({ onTyping, onNavigate, onClose });
  handlers.current = { onTyping, onNavigate, onClose };

  useEffect(() => {
    if (state !== 'loading') return;
    const timer = setTimeout(() => setState('failed'), CHAT_LOAD_TIMEOUT_MS);
    return () => clearTimeout(timer);
  }, [state, attempt]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !ref.current || event.source !== ref.current.contentWindow) return;
      const message = readEmbedMessage(event.data);
      if (message?.type === EMBED_MESSAGES.typing) handlers.current.onTyping(message.isTyping);
      else if (message?.type === EMBED_MESSAGES.navigate) handlers.current.onNavigate(message.url);
      else if (message?.type === EMBED_MESSAGES.close) handlers.current.onClose();
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      handlers.current.onTyping(false);
    };
  }, []);

  if (state === 'failed') {
    return (
      <div className="wp-panel-state" role="alert">
        <strong>{t('unableToLoadChat')}</strong>
        <p className="muted">{t('unableToLoadChatHint')}</p>
        <Button
          onClick={() => {
            setState('loading');
            setAttempt((n) => n + 1);
          }}
        >
          {t('tryAgain')}
        </Button>
      </div>
    );
  }
  return (
    <>
      {state === 'loading' ? <Spinner label={t('loadingChat')} /> : null}
      <iframe
        key={attempt}
        ref={ref}
        src={embedUrl(window.location.origin, shareToken, sessionToken)}
        title={title}
        hidden={state === 'loading'}
        onLoad={(event) => {
          // An error page has no app root: only the embed page itself counts as loaded.
          const loaded = event.currentTarget.contentDocument?.getElementById('root') != null;
          setState(loaded ? 'ready' : 'failed');
        }}
      />
    </>
  );
}
