import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../../knowledge/extract/fixtures.js';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { kafkaAvailability } from '../../../testing/kafka.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/** A multipart/form-data body with one `file` part, as a browser's FormData sends it. */
function multipart(filename: string, bytes: Uint8Array, field = 'file') {
  const boundary = `----kesher${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, Buffer.from(bytes), tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function assistantFor(h: ApiHarness) {
  const owner = await h.owner();
  const created = await h.app.inject({
    method: 'POST',
    url: '/api/v1/assistants/',
    headers: { authorization: owner.authorization },
    payload: { name: 'Shop', description: 'The shop', instructions: 'Answer from the files' },
  });
  return { ...owner, id: created.json().assistant_id as number };
}

function fileTests(
  label: string,
  options: { bus: 'in-process' | 'kafka' },
  available: { available: boolean; reason?: string },
) {
  describe.skipIf(!available.available)(
    `knowledge file routes (${label})${available.available ? '' : ` (not run: ${available.reason})`}`,
    () => {
      let h: ApiHarness;
      beforeAll(async () => {
        h = await createApiHarness({ bus: options.bus, env: { KNOWLEDGE_STORAGE_LIMIT_BYTES: String(200 * 1024) } });
      });
      afterAll(async () => h?.close());

      const upload = (owner: { authorization: string; id: number }, filename: string, bytes: Uint8Array) => {
        const { payload, headers } = multipart(filename, bytes);
        return h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${owner.id}/upload_file`,
          headers: { ...headers, authorization: owner.authorization },
          payload,
        });
      };
      const fileStatus = async (owner: { authorization: string; id: number }, fileId: string) =>
        (
          await h.app.inject({
            url: `/api/v1/assistants/${owner.id}/files`,
            headers: { authorization: owner.authorization },
          })
        )
          .json()
          .find((f: { id: string }) => f.id === fileId)?.status;

      it('ingests a PDF through the bus: listed, ready, its text readable, then deleted', async () => {
        const owner = await assistantFor(h);
        const response = await upload(owner, 'english.pdf', fixture('english.pdf'));
        expect(response.statusCode).toBe(201);
        const file = response.json();
        expect(file).toMatchObject({
          filename: 'english.pdf',
          bytes: fixture('english.pdf').byteLength,
          source_url: null,
        });
        expect(typeof file.created_at).toBe('number');
        await expect.poll(() => fileStatus(owner, file.id), { timeout: 30_000, interval: 100 }).toBe('ready');

        const text = await h.app.inject({
          url: `/api/v1/openai/file/${file.id}/content`,
          headers: { authorization: owner.authorization },
        });
        expect(text.headers['content-type']).toMatch(/^text\/plain/);
        expect(text.body.length).toBeGreaterThan(100);

        const removed = await h.app.inject({
          method: 'DELETE',
          url: `/api/v1/assistants/${owner.id}/files/${file.id}`,
          headers: { authorization: owner.authorization },
        });
        expect(removed.statusCode).toBe(200);
        expect(
          (
            await h.app.inject({
              url: `/api/v1/assistants/${owner.id}/files`,
              headers: { authorization: owner.authorization },
            })
          ).json(),
        ).toEqual([]);
      });

      it('answers a re-upload of the same bytes with the same file', async () => {
        const owner = await assistantFor(h);
        const first = (await upload(owner, 'hebrew.docx', fixture('hebrew.docx'))).json();
        const again = await upload(owner, 'copy-of-hebrew.docx', fixture('hebrew.docx'));
        expect(again.statusCode).toBe(200);
        expect(again.json().id).toBe(first.id);
        expect(
          (
            await h.app.inject({
              url: `/api/v1/assistants/${owner.id}/files`,
              headers: { authorization: owner.authorization },
            })
          ).json(),
        ).toHaveLength(1);
      });

      it('fails an encrypted file with a readable reason and leaves other files alone', async () => {
        const owner = await assistantFor(h);
        const good = (
          await upload(
            owner,
            'notes.txt',
            new TextEncoder().encode('Opening hours: Sunday to Thursday, 9:00 to 18:00.\n'),
          )
        ).json();
        const locked = (await upload(owner, 'locked.pdf', fixture('encrypted.pdf'))).json();
        await expect.poll(() => fileStatus(owner, locked.id), { timeout: 30_000, interval: 100 }).toBe('failed');
        const listed = (
          await h.app.inject({
            url: `/api/v1/assistants/${owner.id}/files`,
            headers: { authorization: owner.authorization },
          })
        ).json();
        expect(listed.find((f: { id: string }) => f.id === locked.id).status_reason).toMatch(/password/i);
        await expect.poll(() => fileStatus(owner, good.id), { timeout: 30_000, interval: 100 }).toBe('ready');
      });

      it('refuses a wrong type, an oversized file, a full quota and a missing file with clear texts', async () => {
        const owner = await assistantFor(h);
        const exe = await upload(owner, 'tool.exe', new Uint8Array([77, 90, 0, 0]));
        expect(exe.statusCode).toBe(415);
        expect(exe.json().detail).toBe('Please select a valid file type (PDF, DOCX, TXT, CSV, MD, JSON, XLSX or PPTX)');

        const big = await upload(owner, 'big.txt', new Uint8Array(21 * 1024 * 1024).fill(65));
        expect(big.statusCode).toBe(413);
        expect(big.json().detail).toBe('File is too large (max 20 MB).');

        // This suite's quota is 200 KB.
        const first = await upload(owner, 'a.txt', new Uint8Array(150 * 1024).fill(66));
        expect(first.statusCode).toBe(201);
        const over = await upload(owner, 'b.txt', new Uint8Array(100 * 1024).fill(67));
        expect(over.statusCode).toBe(413);
        expect(over.json().detail).toMatch(/storage .* is full/);

        const { payload, headers } = multipart('x.txt', new Uint8Array([1]), 'not-file');
        const wrongField = await h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${owner.id}/upload_file`,
          headers: { ...headers, authorization: owner.authorization },
          payload,
        });
        expect(wrongField.statusCode).toBe(422);
      });

      it("never shows one owner's files to another", async () => {
        const alice = await assistantFor(h);
        const bob = await assistantFor(h);
        const file = (await upload(alice, 'secret.txt', new TextEncoder().encode('The safe code is 4711.'))).json();
        await expect.poll(() => fileStatus(alice, file.id), { timeout: 30_000, interval: 100 }).toBe('ready');
        const asBob = { authorization: bob.authorization };
        expect((await h.app.inject({ url: `/api/v1/openai/file/${file.id}/content`, headers: asBob })).statusCode).toBe(
          404,
        );
        expect((await h.app.inject({ url: `/api/v1/assistants/${alice.id}/files`, headers: asBob })).statusCode).toBe(
          404,
        );
        expect(
          (
            await h.app.inject({
              method: 'DELETE',
              url: `/api/v1/assistants/${bob.id}/files/${file.id}`,
              headers: asBob,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await h.app.inject({
              method: 'DELETE',
              url: `/api/v1/assistants/${alice.id}/files/${file.id}`,
              headers: asBob,
            })
          ).statusCode,
        ).toBe(404);
        expect(
          (
            await h.app.inject({
              url: `/api/v1/openai/file/${file.id}/content`,
              headers: { authorization: alice.authorization },
            })
          ).body,
        ).toContain('4711');
      });
    },
  );
}

fileTests('in-process bus', { bus: 'in-process' }, gate);
fileTests('Kafka bus', { bus: 'kafka' }, gate.available ? await kafkaAvailability() : gate);
