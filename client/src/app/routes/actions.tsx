import { ActionsPage } from '@/features/automation/components/actions-page';

/** /actions: its own lazy chunk (the page, its modals and the automation CSS). */
export function Component() {
  return <ActionsPage />;
}
