import { uploadExtensions, type KnowledgeFileKind } from '@kesher/contracts';

/** Longest name a file is kept under (the upload event allows 255). */
const MAX_NAME_LENGTH = 200;

/**
 * Characters a file's name never keeps: C0 and C1 controls, and the invisible format characters (Unicode's
 * Cf) — among them every bidi control: the embeddings and overrides U+202A–202E, the isolates U+2066–2069,
 * the marks U+200E/200F and U+061C. A right-to-left override turns "invoice\u202Eexe.txt" into what reads as
 * "invoicetxt.exe" in the owner's list (and the other way round), so a name could pass for another type or
 * another file. Kept: the zero-width joiner and non-joiner (Persian words, emoji sequences such as 👩‍💻)
 * and the tag characters of subdivision flags (🏴 England), which draw nothing on their own.
 */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f]|(?![\u200c\u200d\u{e0020}-\u{e007f}])\p{Cf}/gu;

/** `name` without controls and invisible format characters (see INVISIBLE); every door a file comes in by uses it. */
export const withoutInvisibleCharacters = (name: string) => name.replace(INVISIBLE, '');

/**
 * The name an uploaded file is kept under, and its type. Directories, control characters and bidi
 * controls are dropped before the extension is read, so the type is the one the name shows. A name
 * longer than 200 characters is cut before its extension, never through it, and the type is read from
 * the extension of the whole name: cutting it off used to make a long-named PDF "the wrong type".
 */
export function uploadedFileName(raw: string): { filename: string; kind: KnowledgeFileKind | undefined } {
  const name = withoutInvisibleCharacters(raw.split(/[\\/]/).pop() ?? '').trim() || 'file';
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot).toLowerCase() : '';
  const kind = (uploadExtensions as readonly string[]).includes(extension.slice(1))
    ? (extension.slice(1) as KnowledgeFileKind)
    : undefined;
  if (name.length <= MAX_NAME_LENGTH) return { filename: name, kind };
  const kept = extension.length < 20 ? name.slice(dot) : '';
  // Never between the two halves of a surrogate pair (an emoji): half of one is not text.
  const stem = name.slice(0, MAX_NAME_LENGTH - kept.length).replace(/[\uD800-\uDBFF]$/, '');
  return { filename: stem + kept, kind };
}
