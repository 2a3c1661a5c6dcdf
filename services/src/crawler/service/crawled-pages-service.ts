import { crawlerMessages, messages, type AllPosition, type CrawledUrlDto } from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { crawlerQueries, type CrawledUrlRecord } from '@kesher/projections/crawler/crawler.queries';
import { DomainError } from '../../platform/commands/decider.js';
import type { AwaitReadModels } from '../../platform/projections/read-model-progress.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { siteKnowledgeEventTypes, type SiteKnowledge } from '../site-knowledge.js';
import { toCrawledUrlDto } from './crawler.mapper.js';
import type { CrawlerCaller } from './crawler-service.js';

export interface CrawledPagesServiceDeps {
  readDb: Sql;
  site: Pick<SiteKnowledge, 'togglePage' | 'deletePages'>;
  /** A crawled page's text is its knowledge file's (with its `URL:` line); undefined while it has none. */
  fileText: (ownerId: string, fileId: string) => Promise<string | undefined>;
  awaitReadModels: AwaitReadModels;
}

/**
 * Crawler Settings' use cases (spec §2, §7): an assistant's crawled pages with their stats, search, the
 * enabled filter and pagination; turning a page off (its file is deleted: no answers from it) or on (a new
 * file from its content); its text; bulk delete. Every page is found through its owner: another owner's
 * page or assistant is `not_found`, exactly like a missing one.
 */
export function createCrawledPagesService(deps: CrawledPagesServiceDeps) {
  const assistants = assistantQueries(deps.readDb);
  const crawler = crawlerQueries(deps.readDb);

  async function ownedAssistant(ownerId: string, numericId: number) {
    const row = await assistants.findOwned(ownerId, numericId);
    if (!row) throw new DomainError('not_found', messages.assistantNotFound);
    return row;
  }

  async function ownedUrl(ownerId: string, id: string) {
    const url = await crawler.url(ownerId, id);
    if (!url) throw new DomainError('not_found', crawlerMessages.urlNotFound);
    return url;
  }

  /** Waits for the read models to apply `position`; false (and the caller told) when the wait ran out. */
  const settled = async (caller: CrawlerCaller, position: AllPosition | undefined) => {
    if (!position || (await deps.awaitReadModels(position, siteKnowledgeEventTypes))) return true;
    caller.onPending(position, siteKnowledgeEventTypes);
    return false;
  };

  async function setEnabled(caller: CrawlerCaller, url: CrawledUrlRecord, enabled: boolean): Promise<CrawledUrlRecord> {
    if (url.isEnabled !== enabled) {
      const position = await deps.site.togglePage(caller.context, {
        ownerId: caller.ownerId,
        assistantId: url.assistantId,
        pageId: url.id,
        enabled,
      });
      // Behind: the page as toggled, not the read model's row that still says the opposite. Turned off it
      // has no file; turned on, its new file's id is not known here (null until the read model has it).
      if (!(await settled(caller, position))) return { ...url, isEnabled: enabled, fileId: null };
    }
    const now = await crawler.url(caller.ownerId, url.id);
    if (!now) throw new DomainError('not_found', crawlerMessages.urlNotFound);
    return now;
  }

  return {
    async list(
      ownerId: string,
      numericId: number,
      query: { search?: string; isEnabled?: boolean; skip: number; limit: number },
    ) {
      const row = await ownedAssistant(ownerId, numericId);
      const page = await crawler.urls(ownerId, row.id, { ...query, search: query.search || undefined });
      return { urls: page.urls.map(toCrawledUrlDto), total: page.total };
    },

    async stats(ownerId: string, numericId: number) {
      const row = await ownedAssistant(ownerId, numericId);
      const stats = await crawler.stats(ownerId, row.id);
      return {
        total_urls: stats.totalUrls,
        disabled_urls: stats.disabledUrls,
        total_characters: stats.totalCharacters,
        total_size_bytes: stats.totalSizeBytes,
        last_crawl_time: stats.lastCrawlTime,
      };
    },

    async setEnabled(caller: CrawlerCaller, urlId: string, enabled: boolean): Promise<CrawledUrlDto> {
      return toCrawledUrlDto(await setEnabled(caller, await ownedUrl(caller.ownerId, urlId), enabled));
    },

    async toggle(caller: CrawlerCaller, urlId: string) {
      const url = await ownedUrl(caller.ownerId, urlId);
      const now = await setEnabled(caller, url, !url.isEnabled);
      return { ...toCrawledUrlDto(now), message: now.isEnabled ? 'URL enabled' : 'URL disabled' };
    },

    async content(ownerId: string, urlId: string) {
      const url = await ownedUrl(ownerId, urlId);
      const content = url.fileId ? await deps.fileText(ownerId, url.fileId) : undefined;
      if (content === undefined) return { error: crawlerMessages.noContent };
      return { content, source_url: url.sourceUrl, page_title: url.pageTitle };
    },

    /** Deletes the assistant's pages named (and their files); ids of other assistants or owners are left out. */
    async remove(caller: CrawlerCaller, numericId: number, urlIds: readonly string[]) {
      const row = await ownedAssistant(caller.ownerId, numericId);
      const owned: string[] = [];
      for (const id of new Set(urlIds)) {
        const url = await crawler.url(caller.ownerId, id);
        if (url && url.assistantId === row.id) owned.push(id);
      }
      if (owned.length === 0) throw new DomainError('not_found', crawlerMessages.urlNotFound);
      const result = await deps.site.deletePages(caller.context, {
        ownerId: caller.ownerId,
        assistantId: row.id,
        pageIds: owned,
        reason: 'owner',
      });
      await settled(caller, result.position);
      return { message: crawlerMessages.deleted(result.deleted), deleted_count: result.deleted };
    },
  };
}

export type CrawledPagesService = ReturnType<typeof createCrawledPagesService>;
