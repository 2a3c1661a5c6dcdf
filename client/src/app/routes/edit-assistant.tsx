import { crawlerLimits } from '@kesher/contracts';
import { useParams } from 'react-router';
import { EditAssistantPage } from '@/features/assistants/components/edit-assistant-page';
import { ExternalApiSection } from '@/features/automation/components/external-api-section';
import { crawlSession } from '@/features/crawler/crawl-session';
import { startCrawl } from '@/features/crawler/start-crawl';

/**
 * Composes the edit form with the crawler feature (turning the crawler on starts a crawl with the edit
 * defaults, spec §9) and with the automation feature's external API endpoints.
 */
export function Component() {
  const { assistantId } = useParams();
  return (
    <>
      <EditAssistantPage
        key={assistantId}
        assistantId={Number(assistantId)}
        // Turning the crawler back on keeps the owner's page choice: the pages held are refreshed, not the whole site added.
        startCrawler={(id, url) => startCrawl(id, url, crawlerLimits.edit, 'held')}
        onCrawlStarted={(crawlId, url) => crawlSession.start(crawlId, url)}
      />
      {/* The named endpoints its API actions call (automation feature), saved on their own. */}
      <div className="page narrow">
        <ExternalApiSection key={assistantId} assistantId={Number(assistantId)} />
      </div>
    </>
  );
}
