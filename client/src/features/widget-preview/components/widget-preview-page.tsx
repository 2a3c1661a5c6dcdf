import '../locales';
import type { AssistantDto } from '@kesher/contracts';
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { useCopyToClipboard } from '@/lib/copy-to-clipboard';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage, localizedDetail } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import {
  BUTTON_POSITIONS,
  BUTTON_SIZES,
  type ButtonPosition,
  type ButtonSize,
  DEFAULT_OFFSET,
  webUrl,
  WIDGET_DEFAULTS,
  type WidgetSettings,
} from '../../../../widget/options';
import { embedCode } from '../embed-code';
import { ChatFrame } from './chat-frame';
import { PreviewStage } from './preview-stage';

export interface WidgetPreviewPageProps {
  assistantId: number;
  assistant: AssistantDto | undefined;
  pending: boolean;
  error: unknown;
  onRetry: () => void;
  /** Creates the assistant's share token (POST /assistants/{id}/generate-share-token); composed by the route. */
  generateShareToken: () => Promise<string>;
}

/**
 * /widget-preview/{assistantId} (spec part 2 §2, §4): the assistant, or its not-found / load-error state.
 */
export function WidgetPreviewPage({
  assistantId,
  assistant,
  pending,
  error,
  onRetry,
  generateShareToken,
}: WidgetPreviewPageProps) {
  const { t } = useTranslation('widgetPreview');
  const validId = Number.isInteger(assistantId) && assistantId > 0;
  if (validId && pending) return <Spinner label={t('common:loading')} />;
  if (!assistant) {
    const notFound = !validId || (error instanceof ApiError && error.status === 404);
    return (
      <section className="page narrow">
        {notFound ? (
          <>
            <h1>{t('notFoundTitle')}</h1>
            <p>{t('notFoundText')}</p>
          </>
        ) : (
          <>
            <h1>{t('title')}</h1>
            <div className="banner banner-error" role="alert">
              <p>
                {t('loadFailed')} {errorMessage(error, t)}
              </p>
              <Button onClick={onRetry}>{t('tryAgain')}</Button>
            </div>
          </>
        )}
        <Link className="btn btn-secondary" to={paths.dashboard}>
          {t('backToDashboard')}
        </Link>
      </section>
    );
  }
  return <WidgetPreview key={assistant.id} assistant={assistant} generateShareToken={generateShareToken} />;
}

type TokenState = { status: 'idle' | 'generating' } | { status: 'failed'; detail: string };

function WidgetPreview({
  assistant,
  generateShareToken,
}: {
  assistant: AssistantDto;
  generateShareToken: () => Promise<string>;
}) {
  const { t } = useTranslation('widgetPreview');
  const id = useId();
  const [settings, setSettings] = useState<WidgetSettings>(WIDGET_DEFAULTS);
  const [useAvatar, setUseAvatar] = useState(true);
  const [device, setDevice] = useState<'desktop' | 'mobile'>('desktop');
  const [sessionToken, setSessionToken] = useState('');
  const [fullscreen, setFullscreen] = useState(false);
  const [showCode, setShowCode] = useState(false);
  const { copied, copy } = useCopyToClipboard();
  const [generated, setGenerated] = useState<string | null>(null);
  const [token, setTokenState] = useState<TokenState>({ status: 'idle' });
  const [confirming, setConfirming] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [chatOpen, setChatOpen] = useState(false);
  const [typing, setTyping] = useState(false);
  const [redirect, setRedirect] = useState<string | null>(null);
  const configuredSite = webUrl(assistant.website_url ?? assistant.web_crawler.website_url);
  // The owner's choice, else the site when there is one (also when the address arrives with a later refresh).
  const [chosenBackground, setBackground] = useState<'site' | 'example' | null>(null);
  const background = chosenBackground ?? (configuredSite ? 'site' : 'example');
  // Which address failed: a new address (the owner changed it, or a refresh brought it) gets its own chance.
  const [failedSite, setFailedSite] = useState<string | null>(null);
  const siteFailed = failedSite !== null && failedSite === configuredSite;

  const shareToken = generated ?? assistant.share_token;
  const avatarUrl = assistant.avatar_url && useAvatar ? assistant.avatar_url : null;
  const effective = useMemo(() => ({ ...settings, avatarUrl }), [settings, avatarUrl]);
  const code = shareToken ? embedCode(window.location.origin, shareToken, effective) : null;

  useEffect(() => {
    if (!fullscreen) return;
    const onKey = (event: KeyboardEvent) =>
      event.key === 'Escape' && !document.querySelector('dialog[open]') && setFullscreen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [fullscreen]);

  /** Spec §2: the share token is generated on demand, only when the assistant has none (a new one would end the old link). */
  const ensureShareToken = async () => {
    if (shareToken || token.status === 'generating') return;
    setTokenState({ status: 'generating' });
    try {
      setGenerated(await generateShareToken());
      setTokenState({ status: 'idle' });
    } catch (error) {
      setTokenState({ status: 'failed', detail: localizedDetail(error) ?? errorMessage(error, t) });
    }
  };

  const update = (patch: Partial<WidgetSettings>) => setSettings((now) => ({ ...now, ...patch }));
  const onWebsiteFailed = useCallback((url: string) => setFailedSite(url), []);
  const siteShown = background === 'site' && configuredSite && !siteFailed ? configuredSite : null;

  const tokenProblem =
    token.status === 'failed' ? (
      <div className="wp-notice wp-notice-error" role="alert">
        <p>
          <strong>{t('shareTokenUnavailable')}</strong>
        </p>
        <p>{t('shareTokenUnavailableHint', { detail: token.detail })}</p>
        <Button variant="secondary" onClick={() => void ensureShareToken()}>
          {t('tryAgain')}
        </Button>
      </div>
    ) : null;

  return (
    <section className="page widget-preview">
      <header className="wp-head">
        <div>
          <h1>{t('title')}</h1>
          <p className="muted" dir="auto">
            {t('subtitle', { name: assistant.name })}
          </p>
        </div>
        <div className="wp-head-actions">
          <Link className="btn btn-secondary" to={paths.dashboard}>
            {t('backToDashboard')}
          </Link>
          <Button
            aria-expanded={showCode}
            aria-controls={`${id}-code`}
            onClick={() => {
              if (!showCode) void ensureShareToken();
              setShowCode(!showCode);
            }}
          >
            {showCode ? t('hideCode') : t('showCode')}
          </Button>
        </div>
      </header>

      {showCode ? (
        <section id={`${id}-code`} className="card wp-code" aria-labelledby={`${id}-code-title`}>
          <h2 id={`${id}-code-title`}>{t('codeTitle')}</h2>
          <p className="muted">{t('codeHint')}</p>
          {code ? (
            <>
              <pre dir="ltr" aria-label={t('codeLabel', { name: assistant.name })} tabIndex={0}>
                <code>{code}</code>
              </pre>
              <div className="wp-code-actions">
                <Button onClick={() => void copy(code)} aria-live="polite">
                  {copied ? t('copied') : t('copyCode')}
                </Button>
              </div>
            </>
          ) : token.status === 'failed' ? (
            tokenProblem
          ) : (
            <Spinner label={t('generatingToken')} />
          )}
        </section>
      ) : null}

      <div className="wp-layout">
        <section className="card wp-config" aria-labelledby={`${id}-config`}>
          <h2 id={`${id}-config`}>{t('configuration')}</h2>
          <fieldset>
            <legend>{t('device')}</legend>
            <div className="wp-options">
              {(['desktop', 'mobile'] as const).map((value) => (
                <label key={value}>
                  <input
                    type="radio"
                    name={`${id}-device`}
                    checked={device === value}
                    onChange={() => setDevice(value)}
                  />
                  {t(value)}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend>{t('position')}</legend>
            <div className="wp-options">
              {BUTTON_POSITIONS.map((value: ButtonPosition) => (
                <label key={value}>
                  <input
                    type="radio"
                    name={`${id}-position`}
                    checked={!settings.customPosition && settings.buttonPosition === value}
                    onChange={() =>
                      update({
                        buttonPosition: value,
                        customPosition: false,
                        positionX: DEFAULT_OFFSET,
                        positionY: DEFAULT_OFFSET,
                      })
                    }
                  />
                  {t(`positions.${value}`)}
                </label>
              ))}
            </div>
            {settings.customPosition ? (
              <p className="wp-custom-note" role="status">
                {t('customPosition', { x: settings.positionX, y: settings.positionY })}
              </p>
            ) : null}
          </fieldset>
          <fieldset>
            <legend>{t('buttonSize')}</legend>
            <div className="wp-options">
              {BUTTON_SIZES.map((value: ButtonSize) => (
                <label key={value}>
                  <input
                    type="radio"
                    name={`${id}-size`}
                    checked={settings.buttonSize === value}
                    onChange={() => update({ buttonSize: value })}
                  />
                  {value}
                </label>
              ))}
            </div>
          </fieldset>
          {assistant.avatar_url ? (
            <div className="switch-field">
              <input
                id={`${id}-avatar`}
                type="checkbox"
                checked={useAvatar}
                onChange={(event) => setUseAvatar(event.currentTarget.checked)}
              />
              <label htmlFor={`${id}-avatar`}>{t('useAvatar')}</label>
            </div>
          ) : null}
          <fieldset>
            <legend>{t('colors')}</legend>
            <div className="wp-colors">
              {(['buttonColor', 'backgroundColor', 'textColor'] as const).map((key) => (
                <label key={key}>
                  {t(key)}
                  <input
                    type="color"
                    value={settings[key]}
                    onChange={(event) => update({ [key]: event.currentTarget.value })}
                  />
                </label>
              ))}
            </div>
          </fieldset>
          <div className="field">
            <label htmlFor={`${id}-session`}>{t('sessionToken')}</label>
            <input
              id={`${id}-session`}
              value={sessionToken}
              dir="ltr"
              autoComplete="off"
              aria-describedby={`${id}-session-hint`}
              onChange={(event) => setSessionToken(event.currentTarget.value)}
            />
            <p id={`${id}-session-hint`} className="field-hint">
              {t('sessionTokenHint')}
            </p>
          </div>
        </section>

        <section className={`wp-stage${fullscreen ? ' wp-fullscreen' : ''}`} aria-labelledby={`${id}-preview`}>
          <div className="wp-stage-bar">
            <h2 id={`${id}-preview`}>{t('preview')}</h2>
            {configuredSite ? (
              <div className="wp-options" role="radiogroup" aria-label={t('background')}>
                {(['site', 'example'] as const).map((value) => (
                  <label key={value}>
                    <input
                      type="radio"
                      name={`${id}-background`}
                      checked={background === value}
                      onChange={() => setBackground(value)}
                    />
                    {value === 'site' ? t('yourWebsite') : t('examplePage')}
                  </label>
                ))}
              </div>
            ) : null}
            <Button variant="secondary" aria-pressed={fullscreen} onClick={() => setFullscreen(!fullscreen)}>
              {fullscreen ? t('exitFullscreen') : t('fullscreen')}
            </Button>
          </div>
          {!configuredSite ? (
            <div className="wp-notice" role="note">
              <p>
                <strong>{t('noWebsite')}</strong>
              </p>
              <p>
                {t('noWebsiteHint')} <Link to={paths.editAssistant(assistant.id)}>{t('editAssistant')}</Link>
              </p>
            </div>
          ) : siteFailed && background === 'site' ? (
            <div className="wp-notice wp-notice-error" role="alert">
              <p>
                <strong>{t('failedToLoadWebsite')}</strong>
              </p>
              <p>{t('failedToLoadWebsiteHint', { url: configuredSite })}</p>
            </div>
          ) : null}
          {redirect ? (
            <div className="wp-notice" role="status">
              <p>{t('redirectNotice', { url: redirect })}</p>
            </div>
          ) : null}
          <p className="muted small">{t('dragHint')}</p>
          <PreviewStage
            settings={effective}
            device={device}
            websiteUrl={siteShown}
            onWebsiteFailed={onWebsiteFailed}
            typing={typing}
            chatOpen={chatOpen}
            onButton={() => {
              if (chatOpen) setChatOpen(false);
              else if (confirmed) setChatOpen(true);
              else setConfirming(true);
            }}
            onMove={({ x, y }) => update({ customPosition: true, positionX: x, positionY: y })}
            panelTitle={t('chatWith', { name: assistant.name })}
            onClosePanel={() => setChatOpen(false)}
            panelBody={
              shareToken ? (
                <ChatFrame
                  shareToken={shareToken}
                  sessionToken={sessionToken.trim() || null}
                  title={t('chatWith', { name: assistant.name })}
                  onTyping={setTyping}
                  onNavigate={setRedirect}
                  onClose={() => setChatOpen(false)}
                />
              ) : token.status === 'failed' ? (
                <div className="wp-panel-state">{tokenProblem}</div>
              ) : (
                <Spinner label={t('generatingToken')} />
              )
            }
          />
        </section>
      </div>

      {confirming ? (
        <Modal
          title={t('confirmTitle')}
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(false)}>
                {t('cancel')}
              </Button>
              <Button
                onClick={() => {
                  setConfirming(false);
                  setConfirmed(true);
                  setChatOpen(true);
                  void ensureShareToken();
                }}
              >
                {t('continueToChat')}
              </Button>
            </>
          }
        >
          <p dir="auto">{t('confirmText', { name: assistant.name })}</p>
        </Modal>
      ) : null}
    </section>
  );
}
