import '@/features/auth/locales';
import '@/features/marketing/locales';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { PricingPlansPage } from '@/features/billing/components/pricing-plans-page';
import { PricingPage as MarketingPricing } from '@/features/marketing/components/pricing-page';

/**
 * /pricing has two versions (spec part 2 §2): signed-out visitors see the static marketing plans, whose
 * buttons go to sign in carrying the plan chosen; a signed-in owner gets the server's plans and subscribes.
 */
export function Component() {
  const { t } = useTranslation('auth');
  const { status } = useAuth();
  if (status === 'loading') return <Spinner label={t('checking')} />;
  return status === 'signedIn' ? <PricingPlansPage signedIn /> : <MarketingPricing />;
}
