import { useAuth } from '@/features/auth/hooks/use-auth';
import { PrivacyPage } from '@/features/legal/components/privacy-page';
import { RetentionPanel, YourDataPanel } from '@/features/privacy/components/privacy-panels';

/** /privacy: the policy, with the retention periods this deployment applies and, signed in, the owner's own data. */
export function Component() {
  const { status } = useAuth();
  return (
    <PrivacyPage
      intro={
        <div className="privacy-panels">
          {status === 'signedIn' ? <YourDataPanel /> : null}
          <RetentionPanel />
        </div>
      }
    />
  );
}
