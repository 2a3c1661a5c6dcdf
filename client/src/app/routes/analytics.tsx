import { AnalyticsPage } from '@/features/analytics/components/analytics-page';
import { CrawlProgressPanel } from '@/features/crawler/components/crawl-progress-panel';
import { UnansweredQuestions } from '@/features/curated-answers/components/unanswered-questions';

/**
 * /analytics: its own lazy chunk (the page, its SVG charts and its CSS), with the crawler's progress
 * panel: a crawl kept in session storage (spec part 2 §2) reopens here after a reload as on the dashboard,
 * and closes itself 3 s after completion.
 */
export function Component() {
  return (
    <>
      {/* The Q&A feature's list of questions answered with no source, one click from a Q&A (issue 26). */}
      <AnalyticsPage unansweredList={(days) => <UnansweredQuestions days={days} />} />
      <CrawlProgressPanel />
    </>
  );
}
