import { AnalyticsPage } from '@/features/analytics/components/analytics-page';

/** /analytics: its own lazy chunk (the page, its SVG charts and its CSS). */
export function Component() {
  return <AnalyticsPage />;
}
