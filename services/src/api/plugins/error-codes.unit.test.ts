import {
  automationMessages,
  channelSetupMessages,
  chatMessages,
  ErrorBodySchema,
  integrationMessages,
  messages,
  requestMessages,
} from '@kesher/contracts';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError } from '../../platform/commands/decider.js';
import { ApiError } from '../api-error.js';
import { errorsPlugin } from './errors.plugin.js';
import { responseSerializerCompiler } from './response-serializer.js';

/**
 * Every error answer carries its detail's stable code beside the spec's `detail` (issue 25 item 3), so the
 * client translates by code and a reworded English text keeps its Hebrew. No throw site names a code: the
 * handler finds it from the words.
 */
describe('error codes on the wire', () => {
  async function build() {
    const app = Fastify().withTypeProvider<ZodTypeProvider>();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(responseSerializerCompiler);
    await app.register(errorsPlugin);
    app.get('/api-error', async () => {
      throw new ApiError(404, chatMessages.threadNotFound);
    });
    app.get('/limit', async () => {
      throw new ApiError(403, messages.assistantLimitReached(3));
    });
    app.get('/domain', async () => {
      throw new DomainError('not_found', automationMessages.workflowNotFound);
    });
    app.get('/use-case', async () => {
      // A use case's refusal whose words alone do not name it: the reason after the spec's text.
      throw new DomainError('bad_request', channelSetupMessages.refused.whatsapp(integrationMessages.appSecretNeeded), {
        code: 'channelSetup.refused.whatsapp',
        args: [integrationMessages.appSecretNeeded],
      });
    });
    app.get('/held', async () => {
      throw new DomainError('too_many', chatMessages.assistantUnavailable, { retryAfterSeconds: 42 });
    });
    app.get('/google', async () => {
      throw new ApiError(502, 'Failed to load files from Google Drive: quota exceeded', {}, 'drive.loadFailed');
    });
    app.get('/sent', async (_request, reply) => reply.status(409).send({ detail: chatMessages.runActive }));
    app.get('/declared', { schema: { response: { 404: ErrorBodySchema } } }, async (_request, reply) =>
      reply.status(404).send({ detail: messages.assistantNotFound }),
    );
    app.get('/unknown', async () => {
      throw new ApiError(400, 'A text no catalogue has.');
    });
    app.get('/ok', async () => ({ detail: messages.notFound }));
    app.post(
      '/validated',
      { schema: { body: z.object({ title: z.string().min(1, chatMessages.titleRequired), n: z.number() }) } },
      async () => ({ ok: true }),
    );
    return app;
  }

  it('names a thrown text, a domain refusal and a sent one by their catalogue key', async () => {
    const app = await build();
    expect((await app.inject({ url: '/api-error' })).json()).toEqual({
      detail: chatMessages.threadNotFound,
      code: 'chat.threadNotFound',
    });
    expect((await app.inject({ url: '/domain' })).json()).toEqual({
      detail: automationMessages.workflowNotFound,
      code: 'automation.workflowNotFound',
    });
    expect((await app.inject({ url: '/sent' })).json()).toEqual({
      detail: chatMessages.runActive,
      code: 'chat.runActive',
    });
    await app.close();
  });

  it("sends the code a refusal names, its values, and a rate limit's retry-after", async () => {
    const app = await build();
    const refused = await app.inject({ url: '/use-case' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      detail: `Failed to setup WhatsApp integration: ${integrationMessages.appSecretNeeded}`,
      code: 'channelSetup.refused.whatsapp',
      args: [integrationMessages.appSecretNeeded],
    });
    const held = await app.inject({ url: '/held' });
    expect(held.statusCode).toBe(429);
    expect(held.headers['retry-after']).toBe('42');
    expect(held.json()).toEqual({ detail: chatMessages.assistantUnavailable, code: 'chat.assistantUnavailable' });
    const google = await app.inject({ url: '/google' });
    expect(google.statusCode).toBe(502);
    expect(google.json()).toEqual({
      detail: 'Failed to load files from Google Drive: quota exceeded',
      code: 'drive.loadFailed',
    });
    await app.close();
  });

  it('sends a parametrised text with its values, and keeps the code through a declared error schema', async () => {
    const app = await build();
    expect((await app.inject({ url: '/limit' })).json()).toEqual({
      detail: messages.assistantLimitReached(3),
      code: 'common.assistantLimitReached',
      args: ['3'],
    });
    expect((await app.inject({ url: '/declared' })).json()).toEqual({
      detail: messages.assistantNotFound,
      code: 'common.assistantNotFound',
    });
    await app.close();
  });

  it("codes the handler's own texts and the 404 of an unknown address", async () => {
    const app = await build();
    const notJson = await app.inject({
      method: 'POST',
      url: '/validated',
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(notJson.json()).toEqual({ detail: requestMessages.notJson, code: 'request.notJson' });
    expect((await app.inject({ url: '/nowhere' })).json()).toEqual({
      detail: messages.notFound,
      code: 'common.notFound',
    });
    await app.close();
  });

  it('codes each validation item whose text the catalogue has', async () => {
    const app = await build();
    const response = await app.inject({ method: 'POST', url: '/validated', payload: { title: '', n: 'x' } });
    expect(response.statusCode).toBe(422);
    const { detail } = response.json() as { detail: { msg: string; code?: string }[] };
    expect(detail).toContainEqual(
      expect.objectContaining({ msg: chatMessages.titleRequired, code: 'chat.titleRequired' }),
    );
    expect(detail.find((item) => item.msg !== chatMessages.titleRequired)).not.toHaveProperty('code');
    await app.close();
  });

  it('leaves a text outside the catalogues, and a success answer, as they were', async () => {
    const app = await build();
    expect((await app.inject({ url: '/unknown' })).json()).toEqual({ detail: 'A text no catalogue has.' });
    expect((await app.inject({ url: '/ok' })).json()).toEqual({ detail: messages.notFound });
    await app.close();
  });
});
