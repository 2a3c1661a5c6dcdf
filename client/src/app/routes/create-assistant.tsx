import { crawlerLimits } from '@kesher/contracts';
import { CreateAssistantPage } from '@/features/assistants/components/create-assistant-page';
import { createCrawler } from '@/features/crawler/api/create-crawler';
import { crawlSession } from '@/features/crawler/crawl-session';
import { uploadFile } from '@/features/files/api/upload-file';
import { KnowledgeFileInput } from '@/features/files/components/knowledge-file-input';

/** Spec §4/§9: the create flow crawls the whole site with the create defaults and follows it in the progress panel. */
const startCrawler = async (assistantId: number, url: string) => {
  const started = await createCrawler({
    assistant_id: assistantId,
    website_url: url,
    crawl_interval: crawlerLimits.create.crawlInterval,
    max_pages: crawlerLimits.create.maxPages,
    max_depth: crawlerLimits.create.maxDepth,
    delete_orphaned_pages: crawlerLimits.create.deleteOrphanedPages,
    start_crawl: true,
  });
  return { crawlId: started.crawl_id };
};

/** Composes the create form (assistants) with the files feature's first upload and the crawler feature's start. */
export function Component() {
  return (
    <CreateAssistantPage
      upload={(assistantId, file) => uploadFile({ assistantId, file })}
      fileInput={(onFile) => <KnowledgeFileInput onFile={onFile} />}
      startCrawler={startCrawler}
      onCrawlStarted={(crawlId, url) => crawlSession.start(crawlId, url)}
    />
  );
}
