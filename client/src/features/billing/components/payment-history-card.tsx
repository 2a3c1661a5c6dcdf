import { serverText } from '@/lib/server-texts';
import { usePaymentHistory } from '../api/get-payment-history';
import { formatDate, formatMoney } from '../billing-rules';
import { useBillingTexts } from '../hooks/use-language';

/**
 * Payment History: the last five payments, each with its receipt. A list of rows rather than a table, so
 * a 360 px phone shows every column without scrolling sideways.
 */
export function PaymentHistoryCard() {
  const { t, language } = useBillingTexts();
  const history = usePaymentHistory();
  let body;
  if (history.isPending) body = <p className="muted">{t('loading')}</p>;
  else if (history.isError) {
    body = (
      <div role="alert" className="banner banner-error">
        <p>{t('billing.loadFailed')}</p>
        <button type="button" className="btn btn-secondary" onClick={() => void history.refetch()}>
          {t('retry')}
        </button>
      </div>
    );
  } else if (history.data.length === 0) body = <p className="muted">{t('billing.history.empty')}</p>;
  else {
    body = (
      <ul className="payment-list" aria-labelledby="billing-history">
        {history.data.map((payment) => {
          const date = formatDate(payment.created_at, language);
          // The server describes payments in English ("Pro plan, monthly"); said in the page's language.
          const description = serverText(payment.description, language);
          return (
            <li key={payment.id} className="payment-row" data-payment={payment.id}>
              <div className="payment-main">
                <span className="payment-description">{description}</span>
                <span className="small muted">
                  <span className="visually-hidden">{t('billing.history.date')}: </span>
                  {date}
                </span>
              </div>
              <span className="payment-amount">
                <span className="visually-hidden">{t('billing.history.amount')}: </span>
                {formatMoney(payment.amount, payment.currency, language)}
              </span>
              <span className={`badge ${payment.status === 'succeeded' ? 'badge-ready' : 'badge-failed'}`}>
                {t(`billing.history.${payment.status}`)}
              </span>
              {payment.invoice_pdf ? (
                <a
                  className="payment-receipt"
                  href={payment.invoice_pdf}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={t('billing.history.receiptFor', { description, date })}
                >
                  {t('billing.history.receipt')}
                </a>
              ) : null}
            </li>
          );
        })}
      </ul>
    );
  }
  return (
    <section className="card billing-history" aria-labelledby="billing-history">
      <h2 id="billing-history">{t('billing.paymentHistory')}</h2>
      {body}
    </section>
  );
}
