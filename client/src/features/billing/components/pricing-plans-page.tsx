import '../locales';
import './billing.css';
import { type BillingPeriod, type Plan, YEARLY_SAVING_PERCENT } from '@kesher/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, localizedDetail } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { tokenStorage } from '@/lib/token-storage';
import { usePlans } from '../api/get-plans';
import { useSubscriptionStatus } from '../api/get-subscription-status';
import { useStartCheckout } from '../api/start-checkout';
import { destination, formatMoney, type PaidTierChoice, readPricingChoice, tierChoice } from '../billing-rules';
import { useGoTo } from '../hooks/use-go-to';
import { useBillingTexts } from '../hooks/use-language';
import { ComparisonTable } from './comparison-table';
import { PlanLimitList } from './plan-facts';

/** Where a paid checkout lands: the billing page, which then shows the payment and the new plan. */
export const CHECKOUT_SUCCESS_PATH = `${paths.billing}?checkout=success`;

/**
 * /pricing from the server's plans (spec part 2 §2): Monthly/Yearly ("Save 17%"), the plan cards and the
 * comparison table. Subscribe Now asks for a checkout and follows its address ("Processing..." meanwhile);
 * a visitor who is not signed in goes to sign in first, and the plan they chose comes back with them.
 */
export function PricingPlansPage({ signedIn }: { signedIn: boolean }) {
  const { t, language } = useBillingTexts();
  const [params, setParams] = useSearchParams();
  // The choice the page was opened with (back from sign-in): shown once, not every later click.
  const [arrivedWith] = useState(() => readPricingChoice(params));
  const [period, setPeriod] = useState<BillingPeriod>(arrivedWith.period ?? 'monthly');
  const plans = usePlans();
  const status = useSubscriptionStatus({ enabled: signedIn });
  const checkout = useStartCheckout();
  const goTo = useGoTo();
  const navigate = useNavigate();
  const [redirecting, setRedirecting] = useState<PaidTierChoice | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chosenButton = useRef<HTMLButtonElement>(null);

  const loaded = plans.isSuccess;
  useEffect(() => {
    if (loaded && arrivedWith.plan) chosenButton.current?.focus();
  }, [loaded, arrivedWith.plan]);

  const currentTier = signedIn && status.data && status.data.status !== 'canceled' ? status.data.tier : null;
  const busy = redirecting !== null;

  function subscribe(plan: PaidTierChoice) {
    const choice = paths.pricingChoice(plan, period);
    setError(null);
    if (!tokenStorage.get()) return void navigate(paths.loginWithRedirect(choice));
    // The address carries the choice, so a session that turns out to have expired brings it back too.
    setParams({ plan, billing: period }, { replace: true });
    setRedirecting(plan);
    checkout.mutate(
      { tier: plan, billing_period: period, success_url: CHECKOUT_SUCCESS_PATH, cancel_url: choice },
      {
        onSuccess: ({ url }) => {
          const to = destination(url, window.location.origin, { allowExternal: true });
          if (to) return goTo(to);
          setRedirecting(null);
          setError(t('pricing.checkoutFailed'));
        },
        onError: (failure) => {
          setRedirecting(null);
          const said =
            failure instanceof ApiError && failure.status !== null && failure.status < 500
              ? localizedDetail(failure, language)
              : null;
          setError([t('pricing.checkoutFailed'), said].filter(Boolean).join(' '));
        },
      },
    );
  }

  if (plans.isPending) return <Spinner label={t('loading')} />;
  if (plans.isError) {
    return (
      <div className="page">
        <div className="banner banner-error" role="alert">
          <p>{t('pricing.loadFailed')}</p>
          <Button variant="secondary" onClick={() => void plans.refetch()}>
            {t('retry')}
          </Button>
        </div>
      </div>
    );
  }

  const trialDays = Math.max(0, ...plans.data.map((plan) => plan.trial_days));

  const action = (plan: Plan) => {
    const choice = tierChoice(plan.tier);
    if (currentTier === plan.tier)
      return (
        <Button variant="secondary" className="btn-block" disabled>
          {t('pricing.current')}
        </Button>
      );
    // One subscription at a time: an owner with a paid plan changes or cancels it on the billing page.
    if (choice && currentTier && currentTier !== 'FREE')
      return (
        <Link className="btn btn-secondary btn-block" to={paths.billing}>
          {t('pricing.manage')}
        </Link>
      );
    if (!choice) {
      return signedIn ? (
        <Link className="btn btn-secondary btn-block" to={paths.billing}>
          {t('pricing.manage')}
        </Link>
      ) : (
        <Link className="btn btn-secondary btn-block" to={paths.register}>
          {t('pricing.getStarted')}
        </Link>
      );
    }
    return (
      <button
        ref={arrivedWith.plan === choice ? chosenButton : undefined}
        type="button"
        className="btn btn-primary btn-block"
        disabled={busy}
        aria-describedby={`plan-${plan.tier}-name`}
        onClick={() => subscribe(choice)}
      >
        {redirecting === choice ? t('pricing.processing') : t('pricing.subscribe')}
      </button>
    );
  };

  return (
    <div className="page pricing-plans">
      <header className="hero">
        <h1>{t('pricing.title')}</h1>
        <p>{t('pricing.subtitle', { days: trialDays })}</p>
      </header>
      <div className="period-toggle" role="group" aria-label={t('pricing.period')}>
        {(['monthly', 'yearly'] as const).map((value) => (
          <button
            key={value}
            type="button"
            className={`chip${period === value ? ' chip-on' : ''}`}
            aria-pressed={period === value}
            onClick={() => setPeriod(value)}
          >
            {t(`pricing.${value}`)}
            {value === 'yearly' ? (
              <span className="badge badge-ready">{t('pricing.save', { percent: YEARLY_SAVING_PERCENT })}</span>
            ) : null}
          </button>
        ))}
      </div>
      {arrivedWith.plan && signedIn ? (
        <p className="banner banner-info" role="status">
          {t('pricing.choiceBack', { plan: t(`tiers.${arrivedWith.plan.toUpperCase()}.name`) })}
        </p>
      ) : null}
      {error ? (
        <p className="banner banner-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="plans">
        {plans.data.map((plan) => {
          const chosen = arrivedWith.plan !== null && arrivedWith.plan === tierChoice(plan.tier);
          const price = period === 'monthly' ? plan.price_monthly : plan.price_yearly;
          return (
            <section
              key={plan.tier}
              className={`card plan${plan.tier === 'PRO' ? ' plan-featured' : ''}${chosen ? ' plan-chosen' : ''}`}
              aria-labelledby={`plan-${plan.tier}-name`}
            >
              {chosen ? <span className="badge badge-pending">{t('pricing.chosen')}</span> : null}
              <h2 id={`plan-${plan.tier}-name`}>{t(`tiers.${plan.tier}.name`)}</h2>
              <p className="muted">{t(`tiers.${plan.tier}.description`)}</p>
              <p className="price" data-price={plan.tier}>
                {formatMoney(price, plan.currency, language, { whole: true })}
                <span className="small muted">{t(period === 'monthly' ? 'pricing.perMonth' : 'pricing.perYear')}</span>
              </p>
              {plan.trial_days > 0 && period === 'monthly' ? (
                <p className="plan-trial">{t('pricing.trial', { days: plan.trial_days })}</p>
              ) : null}
              <PlanLimitList limits={plan.limits} />
              {action(plan)}
            </section>
          );
        })}
      </div>
      <ComparisonTable plans={plans.data} />
    </div>
  );
}
