import { crawlerLimits } from '@kesher/contracts';
import { createCrawler } from './api/create-crawler';

type Defaults = (typeof crawlerLimits)['create' | 'edit'];

/**
 * Configures the assistant's crawler and starts a whole-site crawl (`POST /web-crawler/` with
 * `start_crawl: true`) — the create flow with the create defaults, the edit form's toggle with the edit
 * defaults (spec §9). The crawl id is what the progress panel follows. `held` (the edit form) refreshes
 * the pages the owner already chose from this site instead of adding every page it finds.
 */
export async function startCrawl(
  assistantId: number,
  websiteUrl: string,
  defaults: Defaults,
  pages: 'site' | 'held' = 'site',
): Promise<{ crawlId: string | null }> {
  const started = await createCrawler({
    assistant_id: assistantId,
    website_url: websiteUrl,
    crawl_interval: defaults.crawlInterval,
    max_pages: defaults.maxPages,
    max_depth: defaults.maxDepth,
    delete_orphaned_pages: 'deleteOrphanedPages' in defaults ? defaults.deleteOrphanedPages : false,
    start_crawl: true,
    pages,
  });
  return { crawlId: started.crawl_id };
}
