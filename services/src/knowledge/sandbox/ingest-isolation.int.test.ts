import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { extractionErrors } from '../extract/extraction-error.js';
import { buildDocxBomb, buildNestedDocx, buildPdfBomb, buildPdfWithManyOperators } from '../testing/bomb-builders.js';

const gate = await postgresAvailability();

/**
 * Issue 10 items 1–2 end to end, in the one-process topology (API, projector, relay and workers share
 * this process and its event loop, as in `make start`): while one owner's hostile files are read,
 * /api/v1/health keeps answering fast, another owner's small upload is ready without waiting for them,
 * and each hostile file fails with its reason while the server carries on.
 */
describe.skipIf(!gate.available)(
  `one owner's hostile uploads${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness({ env: { EXTRACT_TIME_LIMIT_SECONDS: '45' } });
    });
    afterAll(async () => h?.close());

    async function assistantOf(owner: { authorization: string }) {
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization: owner.authorization },
        payload: { name: 'Shop', description: 'The shop', instructions: 'Answer from the files' },
      });
      return created.json().assistant_id as number;
    }

    async function upload(
      owner: { authorization: string },
      assistantId: number,
      filename: string,
      bytes: Uint8Array,
    ): Promise<string> {
      const boundary = `----kesher${Math.random().toString(16).slice(2)}`;
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(bytes),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const response = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${assistantId}/upload_file`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: owner.authorization },
        payload,
      });
      expect(response.statusCode).toBe(201);
      return response.json().id as string;
    }

    async function files(owner: { authorization: string }, assistantId: number) {
      const listed = (
        await h.app.inject({
          url: `/api/v1/assistants/${assistantId}/files`,
          headers: { authorization: owner.authorization },
        })
      ).json() as { id: string; status: string; status_reason: string | null }[];
      return new Map(listed.map((file) => [file.id, file]));
    }

    // How fast /health answers is the benchmark's figure (`make bench-ingest`, p99 against 100 ms); here, on a machine that
    // may be busy with other suites, the test holds what blocking would break, against the attack's own length:
    // a file read on the API's event loop would leave one wait as long as its reading, most of the attack.
    it("keeps /health answering and reads another owner's file at once while the worst files are read", async () => {
      const attacker = await h.owner();
      const victim = await h.owner();
      const [attackerAssistant, victimAssistant] = [await assistantOf(attacker), await assistantOf(victim)];
      const slowPdf = await buildPdfWithManyOperators(450_000);
      const hostile = {
        slow: slowPdf,
        pdfBomb: await buildPdfBomb(),
        docxBomb: await buildDocxBomb(),
        nested: buildNestedDocx(),
      };

      // /health, again and again, for as long as the attack lasts: each answer's time is how long it waited.
      const latencies: number[] = [];
      let attacking = true;
      const probe = (async () => {
        while (attacking) {
          const started = performance.now();
          const response = await h.app.inject({ url: '/api/v1/health' });
          latencies.push(performance.now() - started);
          expect(response.statusCode).toBe(200);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();

      let ids: { slow: string; pdfBomb: string; docxBomb: string; nested: string };
      const attackStarted = performance.now();
      let attackMs = 0;
      try {
        const slow = await upload(attacker, attackerAssistant, 'slow.pdf', hostile.slow);
        const [pdfBomb, docxBomb, nested] = await Promise.all([
          upload(attacker, attackerAssistant, 'bomb.pdf', hostile.pdfBomb),
          upload(attacker, attackerAssistant, 'bomb.docx', hostile.docxBomb),
          upload(attacker, attackerAssistant, 'nested.docx', hostile.nested),
        ]);
        ids = { slow, pdfBomb: pdfBomb!, docxBomb: docxBomb!, nested: nested! };
        const small = await upload(victim, victimAssistant, 'hours.txt', new TextEncoder().encode('Open 8:00-19:00.'));

        // The other owner's file is ready while the attacker's slow PDF is still being read.
        await expect
          .poll(async () => (await files(victim, victimAssistant)).get(small)?.status, {
            timeout: 30_000,
            interval: 50,
          })
          .toBe('ready');
        expect((await files(attacker, attackerAssistant)).get(slow)?.status).toBe('pending');

        await expect
          .poll(
            async () =>
              [...(await files(attacker, attackerAssistant)).values()].every((file) => file.status !== 'pending'),
            { timeout: 120_000, interval: 200 },
          )
          .toBe(true);
        attackMs = performance.now() - attackStarted;
      } finally {
        attacking = false;
        await probe;
      }

      const outcome = await files(attacker, attackerAssistant);
      expect(outcome.get(ids.pdfBomb)).toMatchObject({
        status: 'failed',
        status_reason: extractionErrors.unpackedTooLarge().reason,
      });
      expect(outcome.get(ids.docxBomb)).toMatchObject({
        status: 'failed',
        status_reason: extractionErrors.unpackedTooLarge().reason,
      });
      expect(outcome.get(ids.nested)).toMatchObject({
        status: 'failed',
        status_reason: extractionErrors.corrupt('docx').reason,
      });
      expect(['ready', 'failed']).toContain(outcome.get(ids.slow)?.status);

      latencies.sort((a, b) => a - b);
      expect(latencies.length).toBeGreaterThan(100);
      expect(latencies.at(-1)).toBeLessThan(attackMs / 4);
    }, 180_000);
  },
);
