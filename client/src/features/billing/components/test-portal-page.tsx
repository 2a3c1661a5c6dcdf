import '../locales';
import './billing.css';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/lib/paths';
import { useSubscriptionStatus } from '../api/get-subscription-status';
import { destination } from '../billing-rules';
import { useBillingTexts } from '../hooks/use-language';
import { CurrentPlanCard } from './billing-page';
import { PaymentHistoryCard } from './payment-history-card';

/**
 * The test payments' billing portal: /payment/tranzila-test?manage=1&return_url=… (where "Manage billing"
 * sends an owner whose subscription was paid on the test page; Stripe's owners go to Stripe's portal).
 * The plan with its period and renewal, cancelling, and the payments with their receipts — what a card
 * processor's portal offers — then back to where the owner came from (this site only).
 */
export function TestPortalPage() {
  const { t } = useBillingTexts();
  const [params] = useSearchParams();
  const status = useSubscriptionStatus();
  const back = destination(params.get('return_url'), window.location.origin);
  const backPath = back?.kind === 'internal' ? back.path : paths.billing;

  let content;
  if (status.isPending) content = <Spinner label={t('loading')} />;
  else if (status.isError) {
    content = (
      <div className="banner banner-error" role="alert">
        <p>{t('billing.loadFailed')}</p>
        <Button variant="secondary" onClick={() => void status.refetch()}>
          {t('retry')}
        </Button>
      </div>
    );
  } else {
    content = (
      <div className="billing-grid">
        <CurrentPlanCard status={status.data} inPortal />
        <PaymentHistoryCard />
      </div>
    );
  }
  return (
    <main id="main" className="standalone payment-test test-portal">
      <div className="payment-head">
        <h1>{t('portal.title')}</h1>
        <span className="badge badge-failed">{t('payment.testMode')}</span>
      </div>
      <p className="muted">{t('portal.intro')}</p>
      {content}
      <Link className="btn btn-secondary" to={backPath}>
        {t('portal.back')}
      </Link>
    </main>
  );
}
