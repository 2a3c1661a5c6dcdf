import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../../../testing/api-harness.js';
import { postgresAvailability } from '../../../testing/test-database.js';

const gate = await postgresAvailability();

/**
 * Issue 10 item 12: a file whose name is over 200 characters was refused as the wrong type, because the
 * name was cut to 200 before its extension was read. It is now accepted, read, and listed under a name
 * cut before its extension.
 */
describe.skipIf(!gate.available)(
  `uploading a file with a long name${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await createApiHarness();
    });
    afterAll(async () => h?.close());

    it('accepts a 260-character name, keeps its extension and reads the file', async () => {
      const owner = await h.owner();
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization: owner.authorization },
        payload: { name: 'Shop', description: 'The shop', instructions: 'Answer from the files' },
      });
      const assistantId = created.json().assistant_id as number;
      const filename = `${'Opening hours and delivery terms for every branch '.repeat(5)}final.txt`;
      expect(filename.length).toBeGreaterThan(200);
      const boundary = '----kesherlongname';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
        ),
        Buffer.from('The shop is open Sunday to Thursday from 8:00 to 19:00.'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const response = await h.app.inject({
        method: 'POST',
        url: `/api/v1/assistants/${assistantId}/upload_file`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: owner.authorization },
        payload,
      });
      expect(response.statusCode).toBe(201);
      const file = response.json();
      expect(file.filename).toHaveLength(200);
      expect(file.filename.endsWith('.txt')).toBe(true);
      const status = async () =>
        (
          await h.app.inject({
            url: `/api/v1/assistants/${assistantId}/files`,
            headers: { authorization: owner.authorization },
          })
        )
          .json()
          .find((f: { id: string }) => f.id === file.id)?.status;
      await expect.poll(status, { timeout: 30_000, interval: 100 }).toBe('ready');
    });

    /**
     * Issue 21 item 17: a name kept its right-to-left override and other bidi controls, so the owner's list
     * could show "menu\u202Etxt.exe" as "menuexe.txt" (another type, another file). They are dropped on the way in.
     */
    it('keeps no bidi control or other invisible format character of an uploaded name', async () => {
      const owner = await h.owner();
      const created = await h.app.inject({
        method: 'POST',
        url: '/api/v1/assistants/',
        headers: { authorization: owner.authorization },
        payload: { name: 'Shop', description: 'The shop', instructions: 'Answer from the files' },
      });
      const assistantId = created.json().assistant_id as number;
      const upload = (filename: string, text: string) => {
        const boundary = '----kesherbidiname';
        return h.app.inject({
          method: 'POST',
          url: `/api/v1/assistants/${assistantId}/upload_file`,
          headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, authorization: owner.authorization },
          payload: Buffer.concat([
            Buffer.from(
              `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: text/plain\r\n\r\n`,
            ),
            Buffer.from(text),
            Buffer.from(`\r\n--${boundary}--\r\n`),
          ]),
        });
      };

      const hebrew = await upload(
        '\u202Bמחירון\u202C \u2066\u202D2025\u2069\u200F\u200E\u061C\uFEFF\u2060.txt',
        'Delivery costs 30 shekels.',
      );
      expect(hebrew.statusCode).toBe(201);
      expect(hebrew.json().filename).toBe('מחירון 2025.txt');
      const overridden = await upload('menu\u202Etxt.exe', 'not a text file');
      expect(overridden.statusCode).toBe(415);
      const reversed = await upload('invoice\u202Eexe.txt', 'Invoice 17: paid.');
      expect(reversed.statusCode).toBe(201);
      expect(reversed.json().filename).toBe('invoiceexe.txt');

      const listed = (
        await h.app.inject({
          url: `/api/v1/assistants/${assistantId}/files`,
          headers: { authorization: owner.authorization },
        })
      ).json() as { filename: string }[];
      expect(listed.map((f) => f.filename).sort()).toEqual(['invoiceexe.txt', 'מחירון 2025.txt']);
      for (const { filename } of listed)
        expect(filename).not.toMatch(/[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\ufeff\u2060]/);
    });
  },
);
