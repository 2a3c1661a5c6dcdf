import '../locales';
import { en } from '../locales/en';
import type { InstagramIntegrationDto, TelegramIntegrationDto, WhatsAppIntegrationDto } from '@kesher/contracts';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage, localizedDetail } from '@/lib/api-error';
import { notify } from '@/lib/toast-store';
import {
  type Channel,
  useDisconnect,
  useInstagramStats,
  useSetupInstagram,
  useSetupTelegram,
  useSetupWhatsApp,
  useWhatsAppStats,
} from '../api/integrations';
import {
  setupBody,
  setupFailureText,
  setupProblem,
  telegramUsernameKey,
  type ChannelEntry,
} from '../channel-catalogue';

export type Connected =
  | { channel: 'telegram'; data: TelegramIntegrationDto }
  | { channel: 'whatsapp'; data: WhatsAppIntegrationDto }
  | { channel: 'instagram'; data: InstagramIntegrationDto };

interface Props {
  entry: ChannelEntry & { id: Channel };
  assistantId: number;
  connected: Connected | null;
  onClose: () => void;
}

/** One line of a connected integration's details (tokens arrive masked from the server). */
function Detail({ label, value }: { label: string; value: string | number | null }) {
  if (value === null || value === '') return null;
  return (
    <div className="integration-detail">
      <dt>{label}</dt>
      <dd dir="ltr">{value}</dd>
    </div>
  );
}

/**
 * A channel's modal (spec part 2 §2, §4): the setup form while it is not connected — required fields
 * marked, tokens in password fields, the spec's texts — and once connected, Configure: the masked token,
 * the webhook address Meta needs, the chat stats, and Disconnect after a confirmation.
 */
export function ChannelModal({ entry, assistantId, connected, onClose }: Props) {
  const { t, i18n } = useTranslation('integrations');
  const formId = useId();
  const [values, setValues] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const telegram = useSetupTelegram();
  const whatsapp = useSetupWhatsApp();
  const instagram = useSetupInstagram();
  const remove = useDisconnect();
  const whatsappStats = useWhatsAppStats(assistantId, connected?.channel === 'whatsapp');
  const instagramStats = useInstagramStats(assistantId, connected?.channel === 'instagram');
  const name = t(entry.id);
  const saving = telegram.isPending || whatsapp.isPending || instagram.isPending;
  const language = i18n.language as 'en' | 'he';

  const failed = (error: unknown) =>
    setProblem(
      setupFailureText(
        t(`setupFailed_${entry.id}`),
        localizedDetail(error, language) ?? errorMessage(error, t),
        en[`setupFailed_${entry.id as Channel}`],
      ),
    );
  const succeeded = () => {
    notify.success(t('connectedOk', { name }));
    onClose();
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const missing = setupProblem(entry, values);
    if (missing) return setProblem(t(missing));
    setProblem(null);
    const body = setupBody(entry, values);
    if (entry.id === 'telegram') {
      telegram.mutate(
        { assistantId, botToken: body.bot_token! },
        {
          onSuccess: (answer) => {
            localStorage.setItem(telegramUsernameKey(assistantId), answer.bot_username);
            succeeded();
          },
          onError: failed,
        },
      );
    } else if (entry.id === 'whatsapp') {
      whatsapp.mutate(
        { assistantId, body: body as { access_token: string; phone_number_id: string } },
        { onSuccess: succeeded, onError: failed },
      );
    } else {
      instagram.mutate(
        { assistantId, body: body as { page_access_token: string; instagram_account_id: string } },
        { onSuccess: succeeded, onError: failed },
      );
    }
  }

  function disconnectNow() {
    remove.mutate(
      { assistantId, channel: entry.id },
      {
        onSuccess: () => {
          if (entry.id === 'telegram') localStorage.removeItem(telegramUsernameKey(assistantId));
          notify.success(t('disconnectedOk', { name }));
          onClose();
        },
        onError: (error) =>
          notify.error(
            `${t('disconnectFailed', { name })}: ${localizedDetail(error, language) ?? errorMessage(error, t)}`,
          ),
      },
    );
  }

  if (connected) {
    const stats =
      connected.channel === 'whatsapp'
        ? whatsappStats.data
        : connected.channel === 'instagram'
          ? instagramStats.data
          : undefined;
    const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    return (
      <Modal
        title={`${name} — ${t('configure')}`}
        onClose={onClose}
        footer={
          confirming ? (
            <div className="integration-confirm" role="group" aria-label={t('disconnect')}>
              <p>{t('confirmDisconnect', { name })}</p>
              {connected.channel !== 'telegram' ? (
                <p className="banner banner-info">{t('newWebhookOnReconnect')}</p>
              ) : null}
              <Button variant="danger" onClick={disconnectNow} disabled={remove.isPending}>
                {remove.isPending ? t('disconnecting') : t('disconnect')}
              </Button>
              <Button variant="ghost" onClick={() => setConfirming(false)}>
                {t('cancel')}
              </Button>
            </div>
          ) : (
            <>
              <Button variant="danger" onClick={() => setConfirming(true)}>
                {t('disconnect')}
              </Button>
              <Button variant="secondary" onClick={onClose}>
                {t('close')}
              </Button>
            </>
          )
        }
      >
        <dl className="integration-details">
          {connected.channel === 'telegram' ? (
            <>
              <Detail
                label={t('botUsername')}
                value={`@${localStorage.getItem(telegramUsernameKey(assistantId)) ?? connected.data.bot_username}`}
              />
              <Detail label={t('maskedToken')} value={connected.data.bot_token_masked} />
            </>
          ) : connected.channel === 'whatsapp' ? (
            <>
              <Detail label={t('phoneNumber')} value={connected.data.phone_number} />
              <Detail label={t('businessName')} value={connected.data.business_name} />
              <Detail label={t('maskedToken')} value={connected.data.access_token_masked} />
              <Detail label={t('webhookUrl')} value={connected.data.webhook_url} />
              <Detail label={t('verifyToken')} value={connected.data.webhook_verify_token} />
            </>
          ) : (
            <>
              <Detail label={t('username')} value={connected.data.username} />
              <Detail label={t('followers')} value={connected.data.followers_count} />
              <Detail label={t('maskedToken')} value={connected.data.page_access_token_masked} />
              <Detail label={t('webhookUrl')} value={connected.data.webhook_url} />
              <Detail label={t('verifyToken')} value={connected.data.webhook_verify_token} />
            </>
          )}
        </dl>
        {connected.channel !== 'telegram' ? <p className="muted small">{t('webhookHint')}</p> : null}
        {connected.channel === 'telegram' ? (
          <a
            className="btn btn-secondary"
            href={`https://t.me/${encodeURIComponent(connected.data.bot_username)}`}
            target="_blank"
            rel="noreferrer"
          >
            {t('openBot')}
          </a>
        ) : null}
        {stats ? (
          <section aria-label={t('lastChats')}>
            <p>{t('stats', { total: stats.total_chats, active: stats.active_chats })}</p>
            {stats.chats.length > 0 ? (
              <ul className="integration-chats">
                {stats.chats.slice(0, 5).map((chat) => {
                  const who =
                    'wa_id' in chat ? (chat.profile_name ?? chat.wa_id) : (chat.username ?? chat.instagram_user_id);
                  return (
                    <li key={'wa_id' in chat ? chat.wa_id : chat.instagram_user_id}>
                      <span dir="auto">{who}</span>{' '}
                      <span className="muted small">{dateFormat.format(new Date(chat.last_message_at * 1000))}</span>
                    </li>
                  );
                })}
              </ul>
            ) : null}
          </section>
        ) : null}
      </Modal>
    );
  }

  return (
    <Modal
      title={`${t('connect')} ${name}`}
      onClose={onClose}
      footer={
        <>
          <Button type="submit" form={formId} disabled={saving}>
            {saving ? t('saving') : t('save')}
          </Button>
          <Button variant="ghost" onClick={onClose}>
            {t('cancel')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="integration-form">
        {entry.id !== 'telegram' ? <p className="muted small">{t('newWebhookOnConnect')}</p> : null}
        {entry.fields.map((field) => (
          <div className="field" key={field.name}>
            <label htmlFor={`${formId}-${field.name}`}>
              {t(field.label)}{' '}
              {field.required ? (
                <span className="required" aria-hidden="true">
                  *
                </span>
              ) : (
                <span className="muted small">({t('optional')})</span>
              )}
            </label>
            <input
              id={`${formId}-${field.name}`}
              type={field.secret ? 'password' : 'text'}
              autoComplete="off"
              dir="ltr"
              inputMode={field.inputMode}
              required={field.required}
              aria-required={field.required || undefined}
              aria-describedby={field.hint ? `${formId}-${field.name}-hint` : undefined}
              value={values[field.name] ?? ''}
              onChange={(event) => {
                // Read now: the updater runs later, when React has let go of the event's target.
                const value = event.currentTarget.value;
                setValues((now) => ({ ...now, [field.name]: value }));
              }}
            />
            {field.hint ? (
              <p id={`${formId}-${field.name}-hint`} className="field-hint">
                {t(field.hint)}
              </p>
            ) : null}
          </div>
        ))}
        {problem ? (
          <p className="form-error" role="alert">
            {problem}
          </p>
        ) : null}
      </form>
    </Modal>
  );
}
