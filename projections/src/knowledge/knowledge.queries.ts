import type { KnowledgeFileKind } from '@kesher/contracts';
import type { Queryable } from '@kesher/contracts/ports/projection';

export interface KnowledgeFileRecord {
  id: string;
  assistantId: string;
  filename: string;
  kind: KnowledgeFileKind;
  bytes: number;
  createdAt: Date;
  status: 'pending' | 'ready' | 'failed';
  statusReason: string | null;
  sourceUrl: string | null;
  contentSha256: string;
  language: 'he' | 'en' | 'other' | null;
  chunkCount: number | null;
}

interface FileRow {
  id: string;
  assistant_id: string;
  filename: string;
  kind: KnowledgeFileKind;
  bytes: string | number;
  created_at: Date | string;
  status: KnowledgeFileRecord['status'];
  status_reason: string | null;
  source_url: string | null;
  content_sha256: string;
  language: KnowledgeFileRecord['language'];
  chunk_count: number | null;
}

const toRecord = (row: FileRow): KnowledgeFileRecord => ({
  id: row.id,
  assistantId: row.assistant_id,
  filename: row.filename,
  kind: row.kind,
  bytes: Number(row.bytes),
  createdAt: new Date(row.created_at),
  status: row.status,
  statusReason: row.status_reason,
  sourceUrl: row.source_url,
  contentSha256: row.content_sha256,
  language: row.language,
  chunkCount: row.chunk_count,
});

const fileColumns = `id, assistant_id, filename, kind, bytes, created_at, status, status_reason, source_url, content_sha256, language, chunk_count`;

/** Files and their text, always scoped by owner: one owner can never read another's files through these. */
export function knowledgeQueries(db: Queryable) {
  return {
    async listFiles(ownerId: string, assistantId: string): Promise<KnowledgeFileRecord[]> {
      const { rows } = await db.query<FileRow>(
        `SELECT ${fileColumns} FROM knowledge_files WHERE owner_id = $1 AND assistant_id = $2 ORDER BY created_at, id`,
        [ownerId, assistantId],
      );
      return rows.map(toRecord);
    },

    async getFile(ownerId: string, fileId: string): Promise<KnowledgeFileRecord | undefined> {
      const { rows } = await db.query<FileRow>(
        `SELECT ${fileColumns} FROM knowledge_files WHERE owner_id = $1 AND id = $2`,
        [ownerId, fileId],
      );
      return rows[0] && toRecord(rows[0]);
    },

    /**
     * The earliest file of an assistant with exactly these bytes, pending or ready. A failed one does not
     * count: its bytes were given up, and reading them again may succeed (a limit raised, a timeout).
     */
    async findByContent(
      ownerId: string,
      assistantId: string,
      contentSha256: string,
    ): Promise<KnowledgeFileRecord | undefined> {
      const { rows } = await db.query<FileRow>(
        `SELECT ${fileColumns} FROM knowledge_files WHERE owner_id = $1 AND assistant_id = $2 AND content_sha256 = $3 AND status <> 'failed' ORDER BY created_at, id LIMIT 1`,
        [ownerId, assistantId, contentSha256],
      );
      return rows[0] && toRecord(rows[0]);
    },

    /**
     * The file's extracted text for citations (spec: GET /openai/file/{fileId}/content), led by a
     * `URL: <address>` line when the file came from an address. Undefined until the file is ready.
     */
    async fileText(ownerId: string, fileId: string): Promise<string | undefined> {
      const { rows } = await db.query<{ text: string; source_url: string | null }>(
        `SELECT c.text, f.source_url FROM knowledge_files f
         JOIN knowledge_contents c ON c.assistant_id = f.assistant_id AND c.content_sha256 = f.content_sha256
         WHERE f.owner_id = $1 AND f.id = $2 AND f.status = 'ready'`,
        [ownerId, fileId],
      );
      const row = rows[0];
      if (!row) return undefined;
      return row.source_url ? `URL: ${row.source_url}\n\n${row.text}` : row.text;
    },

    /**
     * Bytes of the owner's files as listed (a file uploaded twice counts twice, as the owner sees it), but
     * not of failed ones: their bytes are not kept (the knowledge read model releases them).
     */
    async storageUsed(ownerId: string): Promise<number> {
      const { rows } = await db.query<{ used: string | number | null }>(
        `SELECT coalesce(sum(bytes), 0) AS used FROM knowledge_files WHERE owner_id = $1 AND status <> 'failed'`,
        [ownerId],
      );
      return Number(rows[0]?.used ?? 0);
    },
  };
}

export type KnowledgeQueries = ReturnType<typeof knowledgeQueries>;
