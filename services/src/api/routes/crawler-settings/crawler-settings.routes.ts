import {
  CrawledUrlContentResponseSchema,
  CrawledUrlIdParamSchema,
  CrawledUrlSchema,
  CrawledUrlsQuerySchema,
  CrawledUrlsResponseSchema,
  crawlerMessages,
  CrawlerStatsSchema,
  DeleteCrawledUrlsBodySchema,
  DeleteCrawledUrlsResponseSchema,
  messages,
  NumericIdParamSchema,
  ToggledUrlResponseSchema,
  UpdateCrawledUrlBodySchema,
  type AllPosition,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import { crawlerQueries, type CrawledUrlRecord } from '@kesher/projections/crawler/crawler.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { siteKnowledgeEventTypes, type SiteKnowledge } from '../../../crawler/site-knowledge.js';
import type { AwaitReadModels } from '../../../platform/projections/read-model-progress.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { commandContext, readModelsPending } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import type { KnowledgeReads } from '../files/files.routes.js';
import { toCrawledUrlDto } from '../../../crawler/service/crawler.mapper.js';

export interface CrawlerSettingsRoutesDeps {
  readDb: Sql;
  site: SiteKnowledge;
  /** A crawled page's text is its knowledge file's (with its `URL:` line). */
  knowledge: Pick<KnowledgeReads, 'fileText'>;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
}

/**
 * Crawler Settings (spec §2, §7): an assistant's crawled pages with their stats, search, the enabled
 * filter and pagination (20 a page); turning a page off (its file is deleted: no answers from it) or on
 * (a new file from its content); its text; bulk delete. Every page is found through its owner: another
 * owner's page or assistant is a 404, exactly like a missing one.
 */
export const crawlerSettingsRoutes =
  (deps: CrawlerSettingsRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const assistants = assistantQueries(deps.readDb);
    const crawler = crawlerQueries(deps.readDb);

    async function ownedAssistant(request: FastifyRequest, numericId: number) {
      const account = requireAccount(request);
      const row = await assistants.findOwned(account.id, numericId);
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return { account, row };
    }

    async function ownedUrl(request: FastifyRequest, id: string) {
      const account = requireAccount(request);
      const url = await crawler.url(account.id, id);
      if (!url) throw new ApiError(404, crawlerMessages.urlNotFound);
      return { account, url };
    }

    /** Waits for the read models to apply `position`; false (and the answer marked pending) when the wait ran out. */
    const settled = async (request: FastifyRequest, position: AllPosition | undefined) => {
      if (!position || (await deps.awaitReadModels(position, siteKnowledgeEventTypes))) return true;
      readModelsPending(request, position, siteKnowledgeEventTypes);
      return false;
    };

    async function setEnabled(request: FastifyRequest, url: CrawledUrlRecord, enabled: boolean) {
      const account = requireAccount(request);
      if (url.isEnabled !== enabled) {
        const position = await deps.site.togglePage(commandContext(request, deps.clock), { ownerId: account.id, assistantId: url.assistantId, pageId: url.id, enabled });
        // Behind: the page as toggled, not the read model's row that still says the opposite. Turned off it
        // has no file; turned on, its new file's id is not known here (null until the read model has it).
        if (!(await settled(request, position))) return { ...url, isEnabled: enabled, fileId: null };
      }
      const now = await crawler.url(account.id, url.id);
      if (!now) throw new ApiError(404, crawlerMessages.urlNotFound);
      return now;
    }

    app.get(
      '/crawler-settings/assistant/:id/urls',
      { schema: { summary: "The assistant's crawled pages: search (address, title, file name), is_enabled, skip and limit (20)", params: NumericIdParamSchema, querystring: CrawledUrlsQuerySchema, response: { 200: CrawledUrlsResponseSchema } } },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        const { search, is_enabled, skip, limit } = request.query;
        const page = await crawler.urls(account.id, row.id, { search: search || undefined, isEnabled: is_enabled, skip, limit });
        return { urls: page.urls.map(toCrawledUrlDto), total: page.total };
      },
    );

    app.get(
      '/crawler-settings/assistant/:id/stats',
      { schema: { summary: "The assistant's crawled pages in figures", params: NumericIdParamSchema, response: { 200: CrawlerStatsSchema } } },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        const stats = await crawler.stats(account.id, row.id);
        return { total_urls: stats.totalUrls, disabled_urls: stats.disabledUrls, total_characters: stats.totalCharacters, total_size_bytes: stats.totalSizeBytes, last_crawl_time: stats.lastCrawlTime };
      },
    );

    app.put(
      '/crawler-settings/url/:id',
      { schema: { summary: 'Turn a crawled page on or off', params: CrawledUrlIdParamSchema, body: UpdateCrawledUrlBodySchema, response: { 200: CrawledUrlSchema } } },
      async (request) => {
        const { url } = await ownedUrl(request, request.params.id);
        return toCrawledUrlDto(await setEnabled(request, url, request.body.is_enabled));
      },
    );

    app.post(
      '/crawler-settings/url/:id/toggle',
      { schema: { summary: 'Turn a crawled page off (its file is deleted) or back on (a new file from its content)', params: CrawledUrlIdParamSchema, response: { 200: ToggledUrlResponseSchema } } },
      async (request) => {
        const { url } = await ownedUrl(request, request.params.id);
        const now = await setEnabled(request, url, !url.isEnabled);
        return { ...toCrawledUrlDto(now), message: now.isEnabled ? 'URL enabled' : 'URL disabled' };
      },
    );

    app.get(
      '/crawler-settings/url/:id/content',
      { schema: { summary: "A crawled page's text as the assistant knows it (`error` while it has none: off, or not read yet)", params: CrawledUrlIdParamSchema, response: { 200: CrawledUrlContentResponseSchema } } },
      async (request) => {
        const { account, url } = await ownedUrl(request, request.params.id);
        const content = url.fileId ? await deps.knowledge.fileText(account.id, url.fileId) : undefined;
        if (content === undefined) return { error: crawlerMessages.noContent };
        return { content, source_url: url.sourceUrl, page_title: url.pageTitle };
      },
    );

    app.delete(
      '/crawler-settings/assistant/:id/urls',
      { schema: { summary: 'Delete crawled pages (and their files) by id', params: NumericIdParamSchema, body: DeleteCrawledUrlsBodySchema, response: { 200: DeleteCrawledUrlsResponseSchema } } },
      async (request) => {
        const { account, row } = await ownedAssistant(request, request.params.id);
        const ids = [...new Set(request.body.url_ids)];
        const owned: string[] = [];
        for (const id of ids) {
          const url = await crawler.url(account.id, id);
          if (url && url.assistantId === row.id) owned.push(id);
        }
        if (owned.length === 0) throw new ApiError(404, crawlerMessages.urlNotFound);
        const result = await deps.site.deletePages(commandContext(request, deps.clock), { ownerId: account.id, assistantId: row.id, pageIds: owned, reason: 'owner' });
        await settled(request, result.position);
        return { message: crawlerMessages.deleted(result.deleted), deleted_count: result.deleted };
      },
    );
  };
