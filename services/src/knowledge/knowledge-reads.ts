export interface FileRecord {
  id: string;
  assistantId: string;
  filename: string;
  bytes: number;
  createdAt: Date;
  status: 'pending' | 'ready' | 'failed';
  statusReason: string | null;
  sourceUrl: string | null;
}

/** What the file routes read from the knowledge read model (port; wired to its queries at the root). */
export interface KnowledgeReads {
  listFiles(ownerId: string, assistantId: string): Promise<FileRecord[]>;
  getFile(ownerId: string, fileId: string): Promise<FileRecord | undefined>;
  /** The file's text, with a `URL:` first line when it has a source address. */
  fileText(ownerId: string, fileId: string): Promise<string | undefined>;
  storageUsed(ownerId: string): Promise<number>;
  findByContent(ownerId: string, assistantId: string, sha256: string): Promise<FileRecord | undefined>;
}
