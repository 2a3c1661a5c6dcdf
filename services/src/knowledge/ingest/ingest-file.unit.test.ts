import { KnowledgeChunkSchema, KnowledgeFileIngestedSchema, type KnowledgeFileUploaded } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { fixture } from '../extract/fixtures.js';
import { buildDocx } from '../testing/office-builders.js';
import type { BlobStore } from '../../platform/blobs/blob-store.port.js';
import { createSqlBlobStore } from '../../platform/blobs/sql.blob-store.js';

/** The real blob store, on the embedded database: no stand-in needed for a unit-level test. */
async function createBlobStore() {
  const sql = await createTestPglite();
  const store = await createSqlBlobStore({ sql });
  const size = async () => Number((await sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM blobs`)).rows[0]!.n);
  return Object.assign(store, { size });
}
import { createIngestFile } from './ingest-file.js';
import { createTestPglite } from '../../testing/test-database.js';

async function upload(
  blobs: BlobStore,
  bytes: Uint8Array,
  overrides: Partial<KnowledgeFileUploaded> = {},
): Promise<KnowledgeFileUploaded> {
  const { sha256 } = await blobs.put(bytes);
  return {
    fileId: 'file-1',
    assistantId: 'asst-1',
    ownerId: 'owner-1',
    filename: 'policy.docx',
    kind: 'docx',
    bytes: bytes.byteLength,
    contentSha256: sha256,
    sourceUrl: null,
    ...overrides,
  };
}

const longPolicy = buildDocx([
  { heading: 'Returns' },
  ...Array.from({ length: 12 }, (_, i) => ({
    paragraph:
      `Rule ${i + 1}: items bought in the shop can be returned within 14 days with the receipt, unless they were made to order or are food. `.repeat(
        3,
      ),
  })),
  { heading: 'Delivery' },
  { paragraph: 'Delivery is free above 300 shekels.' },
]);

describe('ingestFile', () => {
  it('extracts, chunks, stores the text and the chunk list, and reports what it did', async () => {
    const blobs = await createBlobStore();
    const uploaded = await upload(blobs, longPolicy);
    const outcome = await createIngestFile({ blobs })(uploaded);
    if (!('ingested' in outcome)) throw new Error(`expected success, got ${JSON.stringify(outcome)}`);
    const event = KnowledgeFileIngestedSchema.parse(outcome.ingested);
    expect(event).toMatchObject({ fileId: 'file-1', assistantId: 'asst-1', language: 'en' });

    const text = (await blobs.get(event.textSha256))!.toString('utf8');
    expect(text.startsWith('Returns\n\nRule 1:')).toBe(true);
    expect(event.characters).toBe(text.length);

    const chunks = KnowledgeChunkSchema.array().parse(
      JSON.parse((await blobs.get(event.chunksSha256))!.toString('utf8')),
    );
    expect(chunks).toHaveLength(event.chunkCount);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0]!.section).toBe('Returns');
    expect(chunks[chunks.length - 1]).toMatchObject({
      section: 'Delivery',
      text: 'Delivery is free above 300 shekels.',
    });
  });

  it('gives the same outcome for the same upload (only the elapsed time may differ)', async () => {
    const blobs = await createBlobStore();
    const uploaded = await upload(blobs, fixture('hebrew.pdf'), { filename: 'hebrew.pdf', kind: 'pdf' });
    const ingest = createIngestFile({ blobs });
    const first = await ingest(uploaded);
    const storedAfterFirst = await blobs.size();
    const second = await ingest(uploaded);
    const strip = (outcome: typeof first) => ('ingested' in outcome ? { ...outcome.ingested, elapsedMs: 0 } : outcome);
    expect(strip(second)).toEqual(strip(first));
    expect(await blobs.size()).toBe(storedAfterFirst);
    expect('ingested' in first && first.ingested.language).toBe('he');
  });

  it('records an unreadable file as a failure with the reason for the owner', async () => {
    const blobs = await createBlobStore();
    const ingest = createIngestFile({ blobs });
    expect(
      await ingest(await upload(blobs, fixture('encrypted.pdf'), { kind: 'pdf', filename: 'secret.pdf' })),
    ).toEqual({
      failed: {
        fileId: 'file-1',
        assistantId: 'asst-1',
        reason: 'The PDF is password-protected. Remove the password and upload it again.',
      },
    });
    expect(await ingest(await upload(blobs, new TextEncoder().encode('   '), { kind: 'txt' }))).toEqual({
      failed: { fileId: 'file-1', assistantId: 'asst-1', reason: 'No text could be found in this file.' },
    });
  });

  it('fails, without throwing, when the uploaded bytes are gone', async () => {
    const outcome = await createIngestFile({ blobs: await createBlobStore() })({
      fileId: 'file-9',
      assistantId: 'asst-1',
      ownerId: 'o',
      filename: 'x.txt',
      kind: 'txt',
      bytes: 3,
      contentSha256: 'a'.repeat(64),
      sourceUrl: null,
    });
    expect(outcome).toEqual({
      failed: {
        fileId: 'file-9',
        assistantId: 'asst-1',
        reason: 'The uploaded file is no longer available. Upload it again.',
      },
    });
  });

  it('lets a broken blob store throw, so the message is retried', async () => {
    const blobs = {
      get: async () => {
        throw new Error('connection refused');
      },
      put: async () => ({ sha256: '', size: 0 }),
    };
    await expect(
      createIngestFile({ blobs })({
        fileId: 'f',
        assistantId: 'a',
        ownerId: 'o',
        filename: 'x.txt',
        kind: 'txt',
        bytes: 1,
        contentSha256: 'b'.repeat(64),
        sourceUrl: null,
      }),
    ).rejects.toThrow('connection refused');
  });
});
