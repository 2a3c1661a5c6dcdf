import type { KnowledgeFileKind } from '@kesher/contracts';

/** A file as Drive lists it (spec part 1 §3: id, name, mimeType, size, modifiedTime). */
export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  size: number | null;
  modifiedTime: string | null;
}

/**
 * How a Drive file is read into knowledge: Google's own formats have no bytes to download and are
 * exported (Docs and Slides as text, Sheets as CSV — spec part 1 §5's Google Docs, Sheets and Slides);
 * everything else is downloaded as it is and read by the extractor its kind names.
 */
export type DriveReading =
  | { via: 'export'; exportMimeType: string; kind: KnowledgeFileKind; extension: string }
  | { via: 'download'; kind: KnowledgeFileKind; extension: string };

const GOOGLE_FORMATS: Record<string, DriveReading> = {
  'application/vnd.google-apps.document': {
    via: 'export',
    exportMimeType: 'text/plain',
    kind: 'txt',
    extension: 'txt',
  },
  'application/vnd.google-apps.spreadsheet': {
    via: 'export',
    exportMimeType: 'text/csv',
    kind: 'csv',
    extension: 'csv',
  },
  'application/vnd.google-apps.presentation': {
    via: 'export',
    exportMimeType: 'text/plain',
    kind: 'txt',
    extension: 'txt',
  },
};

/** Word, Excel, PowerPoint, PDF, text, markdown, CSV and JSON (spec part 1 §5), by MIME type. */
const STORED_FORMATS: Record<string, KnowledgeFileKind> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/x-markdown': 'md',
  'text/csv': 'csv',
  'application/json': 'json',
};

export const IMPORTABLE_MIME_TYPES: readonly string[] = [
  ...Object.keys(GOOGLE_FORMATS),
  ...Object.keys(STORED_FORMATS),
];

export function driveReading(mimeType: string): DriveReading | undefined {
  const google = GOOGLE_FORMATS[mimeType];
  if (google) return google;
  const kind = STORED_FORMATS[mimeType];
  return kind ? { via: 'download', kind, extension: kind } : undefined;
}

/** The knowledge file's name: Drive's name, with the extension its reading gives when it lacks it. */
export function knowledgeFileName(file: Pick<DriveFile, 'name'>, reading: DriveReading): string {
  const name = file.name.trim() || 'Untitled';
  return name.toLowerCase().endsWith(`.${reading.extension}`) ? name : `${name}.${reading.extension}`;
}

/** The owner's search as a Drive query: names containing it, importable types only, nothing in the bin. */
export function driveSearchQuery(search: string): string {
  const types = IMPORTABLE_MIME_TYPES.map((type) => `mimeType = '${type}'`).join(' or ');
  const clauses = ['trashed = false', `(${types})`];
  const text = search.trim();
  // Drive's query language quotes with ' and escapes with \ (its documented rule for string values).
  if (text) clauses.push(`name contains '${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`);
  return clauses.join(' and ');
}

/** Where the file lives in Drive: answers cite it as a link, and the knowledge file remembers its Drive id by it. */
export const driveFileUrl = (fileId: string) => `https://drive.google.com/file/d/${encodeURIComponent(fileId)}`;
