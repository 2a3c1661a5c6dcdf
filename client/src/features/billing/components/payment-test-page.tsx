import '../locales';
import './billing.css';
import { DEFAULT_CURRENCY, TEST_CARDS, TestCheckoutParamsSchema } from '@kesher/contracts';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ApiError, localizedDetail } from '@/lib/api-error';
import { paths } from '@/lib/paths';
import { serverText } from '@/lib/server-texts';
import { usePayTestCheckout } from '../api/pay-test-checkout';
import { destination, expiryMonths, expiryYears, formatMoney } from '../billing-rules';
import { useGoTo } from '../hooks/use-go-to';
import { useBillingTexts } from '../hooks/use-language';
import { TestPortalPage } from './test-portal-page';

/**
 * What the page needs from its address to show the order: the amount (and currency, ILS by default). The
 * rest is shown when present and posted back as it came; the server checks it and names what is missing.
 */
const OrderSchema = TestCheckoutParamsSchema.partial().required({ amount: true });

/** The card form's limits (spec part 2 §9). */
const CARD_NUMBER_MAX = 16;
const CVV_MAX = 4;

/**
 * /payment/tranzila-test (spec part 2 §2, §4): what the test payments adapter sends the owner to instead
 * of a real card processor, so `make start` shows the whole flow. The order comes from the address; the
 * card goes to the server with those same parameters, which answers success (go on) or failed (say why).
 */
export function PaymentTestPage() {
  const [params] = useSearchParams();
  // `manage=1`: the test payments' billing portal ("Manage billing" on a subscription paid here).
  return params.get('manage') === '1' ? <TestPortalPage /> : <PaymentForm />;
}

function PaymentForm() {
  const { t, language } = useBillingTexts();
  const [params] = useSearchParams();
  const order = useMemo(() => OrderSchema.safeParse(Object.fromEntries(params)), [params]);
  const years = useMemo(() => expiryYears(new Date()), []);
  const [cardNumber, setCardNumber] = useState<string>(TEST_CARDS.success);
  const [cardHolder, setCardHolder] = useState(() => t('payment.defaultHolder'));
  const [month, setMonth] = useState('12');
  const [year, setYear] = useState(years[1]!);
  const [cvv, setCvv] = useState('123');
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  const pay = usePayTestCheckout();
  const goTo = useGoTo();
  const origin = window.location.origin;

  const processing = pay.isPending || leaving;
  const cancelTo = destination(params.get('cancel_url'), origin) ?? { kind: 'internal' as const, path: paths.pricing };

  if (!order.success) {
    return (
      <main id="main" className="standalone payment-test">
        <span className="badge badge-failed">{t('payment.testMode')}</span>
        <h1>{t('payment.title')}</h1>
        <p className="banner banner-error" role="alert">
          {t('payment.badLink')}
        </p>
        <Link className="btn btn-secondary" to={paths.pricing}>
          {t('payment.backToPricing')}
        </Link>
      </main>
    );
  }
  const amount = formatMoney(order.data.amount, order.data.currency ?? DEFAULT_CURRENCY, language);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    pay.mutate(
      {
        params: Object.fromEntries(params),
        card: { card_number: cardNumber, card_holder: cardHolder, expiry: `${month}/${year}`, cvv },
      },
      {
        onSuccess: (answer) => {
          if (answer.status === 'success') {
            setLeaving(true);
            return goTo(
              destination(answer.redirect_url, origin) ??
                destination(order.data.success_url, origin) ?? { kind: 'internal', path: paths.billing },
            );
          }
          setError(answer.message ? serverText(answer.message, language) : t('payment.failed'));
        },
        onError: (failure) => {
          if (failure instanceof ApiError && ['network', 'timeout', 'offline'].includes(failure.code))
            setError(t('payment.networkError'));
          else setError(localizedDetail(failure, language) ?? t('payment.failed'));
        },
      },
    );
  };

  return (
    <main id="main" className="standalone payment-test">
      <div className="payment-head">
        <h1>{t('payment.title')}</h1>
        <span className="badge badge-failed">{t('payment.testMode')}</span>
      </div>
      <section className="card" aria-labelledby="payment-summary">
        <h2 id="payment-summary">{t('payment.summary')}</h2>
        <dl className="plan-facts">
          <div>
            <dt>{t('payment.product')}</dt>
            <dd>{order.data.description ? serverText(order.data.description, language) : null}</dd>
          </div>
          <div>
            <dt>{t('payment.amount')}</dt>
            <dd data-amount>{amount}</dd>
          </div>
          <div>
            <dt>{t('payment.email')}</dt>
            <dd className="payment-email">{order.data.email}</dd>
          </div>
        </dl>
      </section>
      <form className="card payment-form" onSubmit={submit} aria-labelledby="payment-title">
        <h2 id="payment-title" className="visually-hidden">
          {t('payment.title')}
        </h2>
        <div className="field">
          <label htmlFor="card-number">{t('payment.cardNumber')}</label>
          <input
            id="card-number"
            name="card_number"
            inputMode="numeric"
            autoComplete="cc-number"
            dir="ltr"
            required
            maxLength={CARD_NUMBER_MAX}
            value={cardNumber}
            onChange={(e) => setCardNumber(e.target.value)}
            aria-describedby="card-hints"
          />
        </div>
        <div id="card-hints" className="card-hints">
          <p className="small muted">{t('payment.hintsTitle')}</p>
          <ul>
            {(
              [
                ['success', 'hintSuccess'],
                ['declined', 'hintDeclined'],
              ] as const
            ).map(([card, hint]) => (
              <li key={card}>
                <button
                  type="button"
                  className="chip"
                  dir="ltr"
                  onClick={() => setCardNumber(TEST_CARDS[card])}
                  aria-label={t('payment.useCard', { number: TEST_CARDS[card] })}
                  disabled={processing}
                >
                  {TEST_CARDS[card]}
                </button>
                <span className="small">{t(`payment.${hint}`)}</span>
              </li>
            ))}
          </ul>
        </div>
        <div className="field">
          <label htmlFor="card-holder">{t('payment.cardHolder')}</label>
          <input
            id="card-holder"
            name="card_holder"
            autoComplete="cc-name"
            required
            value={cardHolder}
            onChange={(e) => setCardHolder(e.target.value)}
          />
        </div>
        <fieldset className="expiry">
          <legend>{t('payment.expiry')}</legend>
          <div className="field">
            <label htmlFor="expiry-month">{t('payment.expiryMonth')}</label>
            <select
              id="expiry-month"
              name="expiry_month"
              required
              value={month}
              onChange={(e) => setMonth(e.target.value)}
              dir="ltr"
            >
              {expiryMonths().map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="expiry-year">{t('payment.expiryYear')}</label>
            <select
              id="expiry-year"
              name="expiry_year"
              required
              value={year}
              onChange={(e) => setYear(e.target.value)}
              dir="ltr"
            >
              {years.map((y) => (
                <option key={y} value={y}>
                  {y}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="cvv">{t('payment.cvv')}</label>
            <input
              id="cvv"
              name="cvv"
              inputMode="numeric"
              autoComplete="cc-csc"
              dir="ltr"
              required
              maxLength={CVV_MAX}
              value={cvv}
              onChange={(e) => setCvv(e.target.value)}
            />
          </div>
        </fieldset>
        {error ? (
          <p className="banner banner-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="payment-actions">
          <button type="button" className="btn btn-secondary" disabled={processing} onClick={() => goTo(cancelTo)}>
            {t('payment.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={processing}>
            {processing ? t('payment.processing') : t('payment.pay', { amount })}
          </button>
        </div>
        <p className="small muted">{t('payment.note')}</p>
      </form>
    </main>
  );
}
