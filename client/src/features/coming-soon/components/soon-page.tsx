import '../locales';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ComingSoonPage } from '@/components/ui/page-shell';
import { paths } from '@/lib/paths';

export type SoonKey =
  | 'analytics'
  | 'integrations'
  | 'workflows'
  | 'guidelines'
  | 'actions'
  | 'billing'
  | 'settings'
  | 'widgetPreview'
  | 'chat';

/** A page of a later feature: its real title and purpose, and a clear "coming soon" note. */
export function SoonPage({ name, standalone = false }: { name: SoonKey; standalone?: boolean }) {
  const { t } = useTranslation('soon');
  const { assistantId } = useParams();
  const page = (
    <ComingSoonPage title={t(name)}>
      <p className="muted">{t(`${name}Note`, { id: assistantId ?? '' })}</p>
      <Link className="btn btn-secondary" to={paths.dashboard}>
        {t('backToDashboard')}
      </Link>
    </ComingSoonPage>
  );
  // Pages without the shared layout still need a main landmark.
  return standalone ? (
    <main id="main" className="standalone">
      {page}
    </main>
  ) : (
    page
  );
}

export function PaymentTestPage() {
  const { t } = useTranslation('soon');
  return (
    <main id="main" className="standalone">
      <section className="page narrow">
        <span className="badge badge-failed">{t('testMode')}</span>
        <h1>{t('paymentTitle')}</h1>
        <p className="muted">{t('paymentNote')}</p>
        <Link className="btn btn-secondary" to={paths.pricing}>
          {t('common:cancel')}
        </Link>
      </section>
    </main>
  );
}
