import {
  CrawledUrlContentResponseSchema,
  CrawledUrlIdParamSchema,
  CrawledUrlSchema,
  CrawledUrlsQuerySchema,
  CrawledUrlsResponseSchema,
  CrawlerStatsSchema,
  DeleteCrawledUrlsBodySchema,
  DeleteCrawledUrlsResponseSchema,
  NumericIdParamSchema,
  ToggledUrlResponseSchema,
  UpdateCrawledUrlBodySchema,
} from '@kesher/contracts';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CrawledPagesService } from '../../../crawler/index.js';
import { commandContext, readModelsPending } from '../../command-runner.js';
import { requireAccount } from '../../plugins/auth.plugin.js';

export interface CrawlerSettingsRoutesDeps {
  /** Crawler Settings' use cases (crawler/service): the routes parse, call one, and reply. */
  pages: CrawledPagesService;
  clock: () => Date;
}

/**
 * Crawler Settings (spec §2, §7): an assistant's crawled pages with their stats, search, the enabled
 * filter and pagination (20 a page); turning a page off or on; its text; bulk delete. Another owner's
 * page or assistant is a 404, exactly like a missing one.
 */
export const crawlerSettingsRoutes =
  (deps: CrawlerSettingsRoutesDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const { pages } = deps;
    const ownerOf = (request: FastifyRequest) => requireAccount(request).id;
    const caller = (request: FastifyRequest) => ({
      ownerId: ownerOf(request),
      context: commandContext(request, deps.clock),
      onPending: (position: Parameters<typeof readModelsPending>[1], eventTypes: readonly string[]) =>
        readModelsPending(request, position, eventTypes),
    });

    app.get(
      '/crawler-settings/assistant/:id/urls',
      {
        schema: {
          summary: "The assistant's crawled pages: search (address, title, file name), is_enabled, skip and limit (20)",
          params: NumericIdParamSchema,
          querystring: CrawledUrlsQuerySchema,
          response: { 200: CrawledUrlsResponseSchema },
        },
      },
      (request) =>
        pages.list(ownerOf(request), request.params.id, {
          search: request.query.search,
          isEnabled: request.query.is_enabled,
          skip: request.query.skip,
          limit: request.query.limit,
        }),
    );

    app.get(
      '/crawler-settings/assistant/:id/stats',
      {
        schema: {
          summary: "The assistant's crawled pages in figures",
          params: NumericIdParamSchema,
          response: { 200: CrawlerStatsSchema },
        },
      },
      (request) => pages.stats(ownerOf(request), request.params.id),
    );

    app.put(
      '/crawler-settings/url/:id',
      {
        schema: {
          summary: 'Turn a crawled page on or off',
          params: CrawledUrlIdParamSchema,
          body: UpdateCrawledUrlBodySchema,
          response: { 200: CrawledUrlSchema },
        },
      },
      (request) => pages.setEnabled(caller(request), request.params.id, request.body.is_enabled),
    );

    app.post(
      '/crawler-settings/url/:id/toggle',
      {
        schema: {
          summary: 'Turn a crawled page off (its file is deleted) or back on (a new file from its content)',
          params: CrawledUrlIdParamSchema,
          response: { 200: ToggledUrlResponseSchema },
        },
      },
      (request) => pages.toggle(caller(request), request.params.id),
    );

    app.get(
      '/crawler-settings/url/:id/content',
      {
        schema: {
          summary: "A crawled page's text as the assistant knows it (`error` while it has none: off, or not read yet)",
          params: CrawledUrlIdParamSchema,
          response: { 200: CrawledUrlContentResponseSchema },
        },
      },
      (request) => pages.content(ownerOf(request), request.params.id),
    );

    app.delete(
      '/crawler-settings/assistant/:id/urls',
      {
        schema: {
          summary: 'Delete crawled pages (and their files) by id',
          params: NumericIdParamSchema,
          body: DeleteCrawledUrlsBodySchema,
          response: { 200: DeleteCrawledUrlsResponseSchema },
        },
      },
      (request) => pages.remove(caller(request), request.params.id, request.body.url_ids),
    );
  };
