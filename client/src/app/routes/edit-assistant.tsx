import { crawlerLimits } from '@kesher/contracts';
import { useParams } from 'react-router';
import { EditAssistantPage } from '@/features/assistants/components/edit-assistant-page';
import { crawlSession } from '@/features/crawler/crawl-session';
import { startCrawl } from '@/features/crawler/start-crawl';

/** Composes the edit form with the crawler feature: turning the crawler on starts a crawl with the edit defaults (spec §9). */
export function Component() {
  const { assistantId } = useParams();
  return (
    <EditAssistantPage
      key={assistantId}
      assistantId={Number(assistantId)}
      startCrawler={(id, url) => startCrawl(id, url, crawlerLimits.edit)}
      onCrawlStarted={(crawlId, url) => crawlSession.start(crawlId, url)}
    />
  );
}
