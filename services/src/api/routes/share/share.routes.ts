import { randomBytes } from 'node:crypto';
import {
  messages,
  NumericIdParamSchema,
  SharedAssistantSchema,
  ShareTokenParamSchema,
  ShareTokenSchema,
  ShareUrlSchema,
  streamIds,
} from '@kesher/contracts';
import { assistantQueries } from '@kesher/projections/assistants/assistants.queries';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { assistantDecider } from '../../../domain/assistant/assistant.decider.js';
import { ApiError } from '../../api-error.js';
import { requireAccount } from '../../plugins/auth.plugin.js';
import { createCommandRunner } from '../../command-runner.js';
import type { AssistantRoutesDeps } from '../assistants/assistants.routes.js';

const INVALID_LINK = 'Invalid or expired share link.';
const SHARE_TOKEN_SHAPE = /^[A-Za-z0-9_-]+$/;

export const shareRoutes =
  (deps: AssistantRoutesDeps & { publicUrl: string }): FastifyPluginAsync =>
  async (plain) => {
    const app = plain.withTypeProvider<ZodTypeProvider>();
    const queries = assistantQueries(deps.readDb);
    const run = createCommandRunner(deps);
    const shareUrl = (token: string) => `${deps.publicUrl}/shared-chat/${token}`;

    async function owned(request: FastifyRequest, numericId: number) {
      const account = requireAccount(request);
      const row = await queries.findOwned(account.id, numericId);
      if (!row) throw new ApiError(404, messages.assistantNotFound);
      return { account, row };
    }

    async function issue(request: FastifyRequest, numericId: number, rotate: boolean) {
      const { account, row } = await owned(request, numericId);
      const result = await run(request, assistantDecider, streamIds.assistant(row.id), {
        type: 'IssueShareToken',
        data: { assistantId: row.id, ownerId: account.id, token: randomBytes(24).toString('base64url'), rotate },
      });
      const state = result.state;
      const token = state.status === 'active' ? state.shareToken : null;
      if (!token) throw new Error('share token missing after issuing');
      return token;
    }

    app.post(
      '/assistants/:id/share',
      {
        schema: {
          summary: 'The share link (created on first use)',
          params: NumericIdParamSchema,
          response: { 200: ShareUrlSchema },
        },
      },
      async (request) => ({
        share_url: shareUrl(await issue(request, request.params.id, false)),
      }),
    );

    // Asking for the link must never break the one customers already have (and every widget built on it):
    // generating answers the current token and makes one only when there is none. Replacing it is its own
    // explicit call.
    app.post(
      '/assistants/:id/generate-share-token',
      {
        schema: {
          summary:
            "The assistant's share link and token: the current one, or a new one when it has none (idempotent; links already given keep working)",
          params: NumericIdParamSchema,
          response: { 200: ShareTokenSchema },
        },
      },
      async (request) => {
        const token = await issue(request, request.params.id, false);
        return { share_url: shareUrl(token), share_token: token };
      },
    );

    app.post(
      '/assistants/:id/rotate-share-token',
      {
        schema: {
          summary:
            'Replace the share token: the previous link, and every widget and conversation using it, stop working',
          params: NumericIdParamSchema,
          response: { 200: ShareTokenSchema },
        },
      },
      async (request) => {
        const token = await issue(request, request.params.id, true);
        return { share_url: shareUrl(token), share_token: token };
      },
    );

    app.delete(
      '/assistants/:id/share-token',
      {
        schema: {
          summary: 'Revoke the share link',
          params: NumericIdParamSchema,
          response: { 200: z.object({ detail: z.string() }) },
        },
      },
      async (request) => {
        const { account, row } = await owned(request, request.params.id);
        await run(request, assistantDecider, streamIds.assistant(row.id), {
          type: 'RevokeShareToken',
          data: { assistantId: row.id, ownerId: account.id },
        });
        return { detail: 'Share link revoked' };
      },
    );

    app.get(
      '/assistants/shared/:token',
      {
        schema: {
          summary: 'Public: the assistant behind a share link',
          params: ShareTokenParamSchema,
          response: { 200: SharedAssistantSchema },
        },
      },
      async (request) => {
        // Tokens are base64url: anything else (a NUL, which Postgres cannot even compare) is simply not a link.
        const row = SHARE_TOKEN_SHAPE.test(request.params.token)
          ? await queries.findByShareToken(request.params.token)
          : undefined;
        if (!row) throw new ApiError(404, INVALID_LINK);
        return {
          id: row.numeric_id,
          name: row.name,
          description: row.description,
          avatar_url: row.avatar_url,
          openai_assistant_id: row.external_id,
        };
      },
    );
  };
