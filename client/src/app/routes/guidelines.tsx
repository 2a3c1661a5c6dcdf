import { GuidelinesPage } from '@/features/automation/components/guidelines-page';

/** /guidelines: its own lazy chunk (the page, its modals and the automation CSS). */
export function Component() {
  return <GuidelinesPage />;
}
