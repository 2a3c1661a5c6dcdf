import { WorkflowsPage } from '@/features/automation/components/workflows-page';

/** /workflows: its own lazy chunk (the page, its modals and the automation CSS). */
export function Component() {
  return <WorkflowsPage />;
}
