import { useMutation, useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useTexts } from '@/lib/texts';
import { notify } from '@/lib/toast-store';
import { downloadMyData, getRetention, getSecurityLog, type SecurityLogEntry } from '../api/privacy';
import { privacyLocales, PRIVACY_NAMESPACE } from '../locales';

/** On /privacy: the retention periods this deployment applies (RETENTION_* settings; the spec's by default). */
export function RetentionPanel() {
  const { t } = useTexts(PRIVACY_NAMESPACE, privacyLocales);
  const retention = useQuery({
    queryKey: ['privacy', 'retention'],
    queryFn: ({ signal }) => getRetention(signal),
    staleTime: 3600_000,
  });
  return (
    <section className="card privacy-retention" aria-labelledby="privacy-retention-title">
      <h2 id="privacy-retention-title">{t('retention.title')}</h2>
      {retention.isPending ? <Spinner label={t('retention.loading')} /> : null}
      {retention.isError ? <p role="alert">{t('retention.failed')}</p> : null}
      {retention.data ? (
        <ul>
          <li>{t('retention.conversations', { days: retention.data.conversation_days })}</li>
          <li>{t('retention.analytics', { months: retention.data.analytics_months })}</li>
          <li>{t('retention.securityLog', { months: retention.data.security_log_months })}</li>
          <li>{t('retention.payments', { years: retention.data.payment_years })}</li>
          <li>{t('retention.inactive', { months: retention.data.inactive_account_months })}</li>
        </ul>
      ) : null}
    </section>
  );
}

const CHANNELS: Record<string, string> = { telegram: 'Telegram', whatsapp: 'WhatsApp', instagram: 'Instagram' };

function entryText(entry: SecurityLogEntry, t: (key: string, vars?: Record<string, unknown>) => string) {
  switch (entry.kind) {
    case 'channel_contact_erased':
      return t('yourData.kinds.channel_contact_erased', {
        channel: CHANNELS[String(entry.detail.channel)] ?? entry.detail.channel,
      });
    case 'retention_run':
      return t('yourData.kinds.retention_run', { count: entry.detail.conversations, days: entry.detail.after_days });
    default:
      return t(`yourData.kinds.${entry.kind}`);
  }
}

/** On /privacy for a signed-in owner: Download my data, and the security log of exports and erasures. */
export function YourDataPanel() {
  const { t, language } = useTexts(PRIVACY_NAMESPACE, privacyLocales);
  const log = useQuery({ queryKey: ['privacy', 'security-log'], queryFn: ({ signal }) => getSecurityLog(signal) });
  const download = useMutation({
    mutationFn: downloadMyData,
    onSuccess: () => {
      notify.success(t('yourData.downloaded'));
      void log.refetch();
    },
    onError: () => notify.error(t('yourData.failed')),
  });
  const when = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <section className="card privacy-your-data" aria-labelledby="privacy-your-data-title">
      <h2 id="privacy-your-data-title">{t('yourData.title')}</h2>
      <p>{t('yourData.intro')}</p>
      <Button onClick={() => download.mutate()} disabled={download.isPending}>
        {download.isPending ? t('yourData.downloading') : t('yourData.download')}
      </Button>
      <h3>{t('yourData.logTitle')}</h3>
      {log.data && log.data.length === 0 ? <p className="muted">{t('yourData.logEmpty')}</p> : null}
      {log.data && log.data.length > 0 ? (
        <ul className="privacy-log">
          {log.data.map((entry) => (
            <li key={entry.id}>
              <time dateTime={entry.at}>{when.format(new Date(entry.at))}</time> — {entryText(entry, t)}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
