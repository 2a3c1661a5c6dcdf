import { CrawlIdParamSchema, crawlerMessages, messages } from '@kesher/contracts';
import { crawlerQueries } from '@kesher/projections/crawler/crawler.queries';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Authenticator } from '../../../identity/index.js';
import type { ProgressBoard } from '../../../platform/projections/progress.js';
import type { Sql } from '../../../platform/sql/sql.port.js';
import { ApiError } from '../../api-error.js';
import { crawlProgressMessage } from '../../../crawler/index.js';

export interface CrawlProgressDeps {
  readDb: Sql;
  readModels: ProgressBoard;
  /** A browser cannot set headers on a WebSocket: the token may come as `?token=` instead. */
  authenticator: Authenticator;
  clock: () => Date;
  /** A message at least this often while the crawl runs (its duration moves on); default 2 s. */
  heartbeatMs?: number;
}

/**
 * The crawl progress socket (spec §7: /api/v1/ws/crawl-progress/{crawlId}): one message per change of
 * the crawl's read-model row — woken by the crawler read model moving, the same whether the crawler runs
 * in this process or in `workers` — and a heartbeat while nothing changes; closed once the crawl is
 * completed or failed. The owner is checked before the upgrade: another owner's crawl, or none, is an
 * HTTP 404, exactly like a missing one; no token, a 401.
 */
export const crawlProgressRoutes =
  (deps: CrawlProgressDeps): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const crawler = crawlerQueries(deps.readDb);
    const heartbeatMs = deps.heartbeatMs ?? 2000;

    app.get(
      '/ws/crawl-progress/:crawlId',
      {
        websocket: true,
        schema: { params: CrawlIdParamSchema, querystring: z.object({ token: z.string().max(4096).optional() }) },
        preValidation: async (request) => {
          if (!request.account && request.query.token) {
            const session = await deps.authenticator.authenticate(request.query.token);
            if (session) request.account = session.account;
          }
          if (!request.account) throw new ApiError(401, messages.authRequired);
          // This hook runs before the params are validated: an id that is not one (a NUL, say) must not reach
          // the database, where it failed as a 500 instead of the crawl it cannot name.
          if (!CrawlIdParamSchema.safeParse(request.params).success)
            throw new ApiError(404, crawlerMessages.crawlNotFound);
          if (!(await crawler.crawl(request.account.id, request.params.crawlId)))
            throw new ApiError(404, crawlerMessages.crawlNotFound);
          // A plain GET of the socket's address: say what it is, in the API's one error shape.
          if (!request.ws)
            throw new ApiError(426, 'This address takes a WebSocket connection.', { upgrade: 'websocket' });
        },
      },
      async (socket, request) => {
        const ownerId = request.account!.id;
        const { crawlId } = request.params;
        let open = true;
        socket.on('close', () => (open = false));
        // Signing out closes the feed (the token it was opened with stops working at once).
        const token = request.query.token ?? request.session?.token;
        if (token) deps.authenticator.trackSocket(token, socket);
        let sent = '';
        let sentAt = 0;
        while (open) {
          const since = deps.readModels.position('crawler');
          const crawl = await crawler.crawl(ownerId, crawlId);
          if (!crawl) break;
          const message = crawlProgressMessage(crawl, deps.clock());
          const { duration: _duration, ...state } = message;
          const fingerprint = JSON.stringify(state);
          if (fingerprint !== sent || Date.now() - sentAt >= heartbeatMs) {
            socket.send(JSON.stringify(message));
            sent = fingerprint;
            sentAt = Date.now();
          }
          if (crawl.status === 'completed' || crawl.status === 'error') break;
          await deps.readModels.waitForMove('crawler', since, heartbeatMs);
        }
        if (open) socket.close(1000, 'done');
      },
    );
  };
