import { uploadExtensions, type KnowledgeFileKind } from '@kesher/contracts';

/** Longest name a file is kept under (the upload event allows 255). */
const MAX_NAME_LENGTH = 200;

/**
 * The name an uploaded file is kept under, and its type. Directories and control characters are dropped.
 * A name longer than 200 characters is cut before its extension, never through it, and the type is read
 * from the extension of the whole name: cutting it off used to make a long-named PDF "the wrong type".
 */
export function uploadedFileName(raw: string): { filename: string; kind: KnowledgeFileKind | undefined } {
  const name = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'file';
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot).toLowerCase() : '';
  const kind = (uploadExtensions as readonly string[]).includes(extension.slice(1)) ? (extension.slice(1) as KnowledgeFileKind) : undefined;
  if (name.length <= MAX_NAME_LENGTH) return { filename: name, kind };
  const kept = extension.length < 20 ? name.slice(dot) : '';
  // Never between the two halves of a surrogate pair (an emoji): half of one is not text.
  const stem = name.slice(0, MAX_NAME_LENGTH - kept.length).replace(/[\uD800-\uDBFF]$/, '');
  return { filename: stem + kept, kind };
}
