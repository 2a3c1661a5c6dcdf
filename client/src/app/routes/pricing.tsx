import '@/features/auth/locales';
import '@/features/marketing/locales';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { PricingPage as MarketingPricing } from '@/features/marketing/components/pricing-page';

// Loaded only for a signed-in owner: it brings the contracts' schemas (zod), which a visitor reading the
// marketing prices does not need (the same rule as the session check in features/auth/api/get-me.ts).
const PricingPlansPage = lazy(async () => ({ default: (await import('@/features/billing/components/pricing-plans-page')).PricingPlansPage }));

/**
 * /pricing has two versions (spec part 2 §2): signed-out visitors see the static marketing plans, whose
 * buttons go to sign in carrying the plan chosen; a signed-in owner gets the server's plans and subscribes.
 */
export function Component() {
  const { t } = useTranslation('auth');
  const { status } = useAuth();
  if (status === 'loading') return <Spinner label={t('checking')} />;
  if (status !== 'signedIn') return <MarketingPricing />;
  return (
    <Suspense fallback={<Spinner label={t('checking')} />}>
      <PricingPlansPage signedIn />
    </Suspense>
  );
}
