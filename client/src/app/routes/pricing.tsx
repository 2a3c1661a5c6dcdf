import '@/features/auth/locales';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/hooks/use-auth';

// Loaded when /pricing is opened: it brings the contracts' schemas (zod), which the landing pages do not need.
const PricingPlansPage = lazy(async () => ({
  default: (await import('@/features/billing/components/pricing-plans-page')).PricingPlansPage,
}));

/**
 * /pricing shows one catalogue to everyone: the server's plans, the ones its limits enforce (issue 22
 * item 13: a static marketing version with other names, prices and limits contradicted it). A signed-out
 * visitor's Subscribe Now goes to sign in first, carrying the plan chosen; the free plan goes to /register.
 */
export function Component() {
  const { t } = useTranslation('auth');
  const { status } = useAuth();
  if (status === 'loading') return <Spinner label={t('checking')} />;
  return (
    <Suspense fallback={<Spinner label={t('checking')} />}>
      <PricingPlansPage signedIn={status === 'signedIn'} />
    </Suspense>
  );
}
