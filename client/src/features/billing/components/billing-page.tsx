import '../locales';
import './billing.css';
import { billingErrors, type SubscriptionStatus } from '@kesher/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { notify } from '@/lib/toast-store';
import { usePlans } from '../api/get-plans';
import { useSubscriptionStatus } from '../api/get-subscription-status';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useOpenBillingPortal } from '../api/open-billing-portal';
import { destination, formatDate, formatMoney } from '../billing-rules';
import { useGoTo } from '../hooks/use-go-to';
import { useBillingTexts } from '../hooks/use-language';
import { PaymentHistoryCard } from './payment-history-card';
import { PlanLimitList } from './plan-facts';
import { UsageCard } from './usage-card';

/** How often, and for how long, /billing asks for the plan after a checkout that has not shown yet. */
export const CHECKOUT_POLL_MS = 2_000;
export const CHECKOUT_POLL_FOR_MS = 60_000;

type StatusBadge = SubscriptionStatus['status'] | 'ending';

const badgeOf = (status: SubscriptionStatus): StatusBadge =>
  status.cancel_at_period_end && status.status !== 'canceled' ? 'ending' : status.status;
const badgeClass: Record<StatusBadge, string> = {
  active: 'badge-ready',
  trialing: 'badge-ready',
  past_due: 'badge-failed',
  canceled: 'badge-failed',
  ending: 'badge-pending',
};

/** /billing, "Billing & Subscription" (spec part 2 §2): plan, limits, usage, payments, portal and cancel. */
export function BillingPage() {
  const { t } = useBillingTexts();
  const [params] = useSearchParams();
  const backFromCheckout = params.get('checkout') === 'success';
  const [arrivedAt] = useState(() => Date.now());
  const [polling, setPolling] = useState(backFromCheckout);
  // Back from Stripe Checkout the webhook may not have landed yet: ask again every 2 s for a minute, until
  // the plan is no longer Free (the test payments record the plan before redirecting, so one answer does).
  const status = useSubscriptionStatus({ refetchInterval: polling ? CHECKOUT_POLL_MS : false });
  const upgraded = status.data !== undefined && status.data.tier !== 'FREE';
  if (polling && (upgraded || (status.dataUpdatedAt > 0 && status.dataUpdatedAt - arrivedAt > CHECKOUT_POLL_FOR_MS)))
    setPolling(false);
  const queryClient = useQueryClient();
  useEffect(() => {
    // The new plan's usage limits and payment come with it.
    if (backFromCheckout && upgraded)
      void queryClient.invalidateQueries({ queryKey: ['subscriptions'], predicate: (q) => q.queryKey[1] !== 'status' });
  }, [backFromCheckout, upgraded, queryClient]);

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
        <CurrentPlanCard status={status.data} />
        <section className="card" aria-labelledby="billing-limits">
          <h2 id="billing-limits">{t('billing.planLimits')}</h2>
          <PlanLimitList limits={status.data.limits} />
        </section>
        <UsageCard />
        <PaymentHistoryCard />
      </div>
    );
  }
  return (
    <section className="page billing-page">
      <h1>{t('billing.title')}</h1>
      <p className="muted">{t('billing.subtitle')}</p>
      {backFromCheckout && upgraded ? (
        <p className="banner banner-success" role="status">
          {t('billing.checkoutSuccess')}
        </p>
      ) : null}
      {backFromCheckout && polling && !upgraded ? (
        <p className="banner banner-info" role="status">
          {t('billing.activating')}
        </p>
      ) : null}
      {content}
    </section>
  );
}

/** The plan, its period and price, and its actions; `inPortal`: shown inside the test portal, without the button that opens it. */
export function CurrentPlanCard({ status, inPortal = false }: { status: SubscriptionStatus; inPortal?: boolean }) {
  const { t, language } = useBillingTexts();
  const plans = usePlans();
  const portal = useOpenBillingPortal();
  const cancel = useCancelSubscription();
  const navigate = useNavigate();
  const goTo = useGoTo();
  const [confirming, setConfirming] = useState(false);
  const [cancelError, setCancelError] = useState<string | null>(null);

  const planName = t(`tiers.${status.tier}.name`);
  const plan = plans.data?.find((p) => p.tier === status.tier);
  const paid = status.tier !== 'FREE';
  const badge = badgeOf(status);
  const end = status.current_period_end ? formatDate(status.current_period_end, language) : null;
  const canCancel = paid && !status.cancel_at_period_end && status.status !== 'canceled';

  let period: string | null = null;
  if (!paid) period = t('billing.freePlan');
  else if (end && status.cancel_at_period_end) period = t('billing.accessUntil', { plan: planName, date: end });
  else if (end && status.status === 'past_due') period = t('billing.pastDue', { plan: planName, date: end });
  else if (status.status === 'trialing' && status.trial_end)
    period = t('billing.trialEnds', { date: formatDate(status.trial_end, language) });
  else if (end) period = t('billing.renews', { date: end });

  const price =
    plan && paid && status.billing_period
      ? t(`billing.price_${status.billing_period}`, {
          amount: formatMoney(
            status.billing_period === 'monthly' ? plan.price_monthly : plan.price_yearly,
            plan.currency,
            language,
          ),
        })
      : null;

  const openPortal = () =>
    portal.mutate(`${window.location.origin}${paths.billing}`, {
      onSuccess: ({ url }) => {
        const to = destination(url, window.location.origin, { allowExternal: true });
        if (to) goTo(to);
        else notify.error(t('billing.portalFailed'));
      },
      onError: (error) => {
        // The spec's two refusals send the owner to choose a plan (§8); anything else stays here.
        const code = error instanceof ApiError ? error.detail : null;
        if (code === billingErrors.freePlanUser || code === billingErrors.noStripeCustomer) {
          notify.warning(t(code === billingErrors.freePlanUser ? 'billing.freePlanUser' : 'billing.noStripeCustomer'));
          void navigate(paths.pricing);
        } else notify.error(t('billing.portalFailed'));
      },
    });

  const confirmCancel = () =>
    cancel.mutate(undefined, {
      onSuccess: () => setConfirming(false),
      onError: () => setCancelError(t('billing.cancelFailed')),
    });

  return (
    <section className="card current-plan" aria-labelledby="billing-plan">
      <h2 id="billing-plan">{t('billing.currentPlan')}</h2>
      <div className="current-plan-head">
        <p className="current-plan-name" data-tier={status.tier}>
          {planName}
        </p>
        <span className={`badge ${badgeClass[badge]}`}>{t(`billing.status.${badge}`)}</span>
      </div>
      {price ? <p className="current-plan-price">{price}</p> : null}
      {period ? <p data-period>{period}</p> : null}
      <div className="billing-actions">
        {inPortal ? null : (
          <Button variant="secondary" onClick={openPortal} disabled={portal.isPending}>
            {portal.isPending ? t('billing.opening') : t('billing.portal')}
          </Button>
        )}
        {/* A paid plan is changed in the payments service's portal (one subscription at a time). */}
        {paid ? null : (
          <Link className="btn btn-primary" to={paths.pricing}>
            {t('billing.upgrade')}
          </Link>
        )}
        {canCancel ? (
          <Button
            variant="danger"
            onClick={() => {
              setCancelError(null);
              setConfirming(true);
            }}
          >
            {t('billing.cancel')}
          </Button>
        ) : null}
      </div>
      {confirming ? (
        <Modal
          title={t('billing.cancelTitle')}
          onClose={() => setConfirming(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirming(false)} disabled={cancel.isPending}>
                {t('billing.cancelKeep')}
              </Button>
              <Button variant="danger" onClick={confirmCancel} disabled={cancel.isPending}>
                {cancel.isPending ? t('billing.canceling') : t('billing.cancelYes')}
              </Button>
            </>
          }
        >
          <p>{t('billing.cancelConfirm')}</p>
          {cancelError ? (
            <p className="form-error" role="alert">
              {cancelError}
            </p>
          ) : null}
        </Modal>
      ) : null}
    </section>
  );
}
