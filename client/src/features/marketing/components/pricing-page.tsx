import '../locales';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';
import { useMarketing } from './use-list';

type Plan = { name: string; price: string; points: string[] };

/**
 * The paid plan each marketing card stands for (Standard, then Premium: the server's PRO and ENTERPRISE).
 * Sign-in brings the visitor back to /pricing with it chosen.
 */
const PAID_CHOICE = ['pro', 'enterprise'] as const;
type Row = { label: string; values: string[] };

/** The static marketing version of the plans (spec part 2 §2); server plans arrive with billing. */
export function PricingPage() {
  const { t, list } = useMarketing();
  const plans = list<Plan[]>('pricingPage.plans');
  return (
    <div className="page">
      <header className="hero">
        <h1>{t('pricingPage.title')}</h1>
        <p>{t('pricingPage.intro')}</p>
      </header>
      <div className="plans">
        {plans.map((plan, i) => (
          <section className={`card plan${i === 1 ? ' plan-featured' : ''}`} key={plan.name}>
            <h2>{plan.name}</h2>
            <p className="price">
              {plan.price}
              <span className="small muted">{t('pricingPage.perMonth')}</span>
            </p>
            <ul>
              {plan.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <Link className={`btn ${i === 0 ? 'btn-secondary' : 'btn-primary'}`} to={i === 0 ? paths.register : paths.loginWithRedirect(paths.pricingChoice(PAID_CHOICE[i - 1]!))}>
              {t('pricingPage.choose')}
            </Link>
          </section>
        ))}
      </div>
      <h2>{t('pricingPage.compareTitle')}</h2>
      <div className="table-wrap" tabIndex={0} role="region" aria-label={t('pricingPage.compareTitle')}>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('pricingPage.feature')}</th>
              {plans.map((plan) => (
                <th scope="col" key={plan.name}>{plan.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {list<Row[]>('pricingPage.rows').map((row) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                {row.values.map((value, i) => (
                  <td key={i}>{value}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
