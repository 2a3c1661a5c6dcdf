import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.js';
import { kafkaAvailability } from '../testing/kafka.js';
import { postgresAvailability } from '../testing/test-database.js';

const postgres = await postgresAvailability();
const gate = postgres.available ? await kafkaAvailability() : postgres;

/** Uploads per deployment: the free plan allows five files per assistant. */
const FILES = 5;

function multipart(filename: string, text: string) {
  const boundary = `----kesher${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    Buffer.from(text),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Registers an owner with an assistant and uploads `FILES` small files; returns a reader of their statuses. */
async function uploadFiles(h: ApiHarness, label: string) {
  const owner = await h.owner();
  const auth = { authorization: owner.authorization };
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/assistants/',
    headers: auth,
    payload: { name: label, description: label, instructions: 'Answer from the files' },
  });
  const assistantId = created.json().assistant_id as number;
  for (let i = 0; i < FILES; i++) {
    const { payload, headers } = multipart(
      `${label}-${i}.txt`,
      `Deployment ${label}, file ${i}: the shop opens at ${7 + i}:00.\n`,
    );
    const response = await h.app.inject({
      method: 'POST',
      url: `/api/v1/assistants/${assistantId}/upload_file`,
      headers: { ...headers, ...auth },
      payload,
    });
    expect(response.statusCode).toBe(201);
  }
  return async () =>
    (
      (await h.app.inject({ url: `/api/v1/assistants/${assistantId}/files`, headers: auth })).json() as {
        status: string;
      }[]
    ).map((f) => f.status);
}

/**
 * Two deployments (two databases) on one Kafka broker at the same time, as the bench's one-process and
 * split runs, tests and a second environment are. Topics and consumer groups are the broker's, not a
 * database's: with the workers of both in the same groups, each was handed part of the other's uploads,
 * found no such file in its own database and acknowledged them, so they stayed `pending` for good.
 */
describe.skipIf(!gate.available)(
  `two deployments on one Kafka broker${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let first: ApiHarness;
    let second: ApiHarness;
    beforeAll(async () => {
      // The production wiring (api, projector, workers each on their own platform), with the default
      // consumer groups: nothing tells the two deployments apart but their databases.
      [first, second] = await Promise.all([
        createApiHarness({ bus: 'kafka', topology: 'split' }),
        createApiHarness({ bus: 'kafka', topology: 'split' }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([first?.close(), second?.close()]);
    });

    it('reads in consumer groups of its own, so each ingests all of its uploads', async () => {
      // Both deployments' workers are in their groups before either uploads (the harness waits for the joins).
      const [firstStatuses, secondStatuses] = await Promise.all([
        uploadFiles(first, 'first'),
        uploadFiles(second, 'second'),
      ]);
      const allReady = Array.from({ length: FILES }, () => 'ready');
      await expect.poll(firstStatuses, { timeout: 30_000, interval: 100 }).toEqual(allReady);
      await expect.poll(secondStatuses, { timeout: 30_000, interval: 100 }).toEqual(allReady);

      expect(first.workers.groups.ingest).toMatch(/^ingest-\w+$/);
      expect(first.workers.groups.ingest).not.toBe(second.workers.groups.ingest);
      expect(first.workers.groups.aiRunner).not.toBe(second.workers.groups.aiRunner);
    });
  },
);
