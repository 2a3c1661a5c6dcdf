import { crawlerLimits } from '@kesher/contracts';
import { CreateAssistantPage } from '@/features/assistants/components/create-assistant-page';
import { crawlSession } from '@/features/crawler/crawl-session';
import { startCrawl } from '@/features/crawler/start-crawl';
import { uploadFile } from '@/features/files/api/upload-file';
import { KnowledgeFileInput } from '@/features/files/components/knowledge-file-input';

/** Composes the create form (assistants) with the files feature's first upload and the crawler feature's start. */
export function Component() {
  return (
    <CreateAssistantPage
      upload={(assistantId, file) => uploadFile({ assistantId, file })}
      fileInput={(onFile) => <KnowledgeFileInput onFile={onFile} />}
      // Spec §4/§9: the create flow crawls the whole site with the create defaults and follows it in the progress panel.
      startCrawler={(assistantId, url) => startCrawl(assistantId, url, crawlerLimits.create)}
      onCrawlStarted={(crawlId, url) => crawlSession.start(crawlId, url)}
    />
  );
}
