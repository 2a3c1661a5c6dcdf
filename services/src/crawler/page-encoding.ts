/**
 * Decoding a fetched page. Browsers take a byte-order mark first, then the charset of the Content-Type
 * header, then a <meta> in the first bytes, then guess. We follow that order but check the label against
 * the bytes: small Israeli sites often say iso-8859-1 (or nothing) and send Windows-1255 Hebrew, or say
 * windows-1255 and send UTF-8. A label the bytes contradict is overruled, and the result says so.
 */
export interface DecodedPage {
  text: string;
  /** The encoding used, as TextDecoder names it (`utf-8`, `windows-1255`, …). */
  encoding: string;
  /** Where the encoding came from. */
  source: 'bom' | 'header' | 'meta' | 'sniffed';
  /** The label the page declared, when the bytes showed it to be wrong. */
  overruledLabel: string | null;
}

const META_SCAN_BYTES = 4096;

export function decodePage(bytes: Uint8Array, contentTypeHeader?: string | null): DecodedPage {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return decoded(bytes.subarray(3), 'utf-8', 'bom');
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return decoded(bytes.subarray(2), 'utf-16le', 'bom');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return decoded(bytes.subarray(2), 'utf-16be', 'bom');

  const fromHeader = encodingOfLabel(charsetParameter(contentTypeHeader ?? ''));
  const fromMeta = fromHeader ? null : encodingOfLabel(metaCharset(bytes));
  const declared = fromHeader ?? fromMeta;
  const source = fromHeader ? 'header' : 'meta';
  const sniffed = sniffEncoding(bytes);

  if (!declared) return decoded(bytes, sniffed, 'sniffed');
  if (declared.encoding === 'utf-8') {
    if (isValidUtf8(bytes)) return decoded(bytes, 'utf-8', source);
    return { ...decoded(bytes, sniffed, 'sniffed'), overruledLabel: declared.label };
  }
  if (isSingleByteLatinOrHebrew(declared.encoding) && sniffed !== declared.encoding && sniffed !== 'windows-1252') {
    // Valid multi-byte UTF-8 or Hebrew letter runs under a Latin (or Hebrew) label: the label is wrong.
    if (sniffed === 'utf-8' && hasMultiByteSequences(bytes))
      return { ...decoded(bytes, 'utf-8', 'sniffed'), overruledLabel: declared.label };
    if (sniffed === 'windows-1255' && declared.encoding !== 'iso-8859-8')
      return { ...decoded(bytes, 'windows-1255', 'sniffed'), overruledLabel: declared.label };
  }
  return decoded(bytes, declared.encoding, source);
}

function decoded(bytes: Uint8Array, encoding: string, source: DecodedPage['source']): DecodedPage {
  return { text: new TextDecoder(encoding).decode(bytes), encoding, source, overruledLabel: null };
}

const charsetParameter = (contentType: string) => /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1] ?? null;

/** The charset a <meta charset> or <meta http-equiv="Content-Type"> names in the first bytes, read as Latin-1. */
function metaCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, META_SCAN_BYTES)).toString(
    'latin1',
  );
  for (const match of head.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = match[0];
    const direct = /\bcharset\s*=\s*["']?([^"'\s/>;]+)/i.exec(tag);
    if (direct) return direct[1]!;
  }
  return null;
}

/** The decoder's canonical name for a label, or null for a label it does not know. */
function encodingOfLabel(label: string | null): { encoding: string; label: string } | null {
  if (!label) return null;
  try {
    let encoding = new TextDecoder(label.trim()).encoding;
    // Pages that say iso-8859-8-i mean logical Hebrew, which is what Windows-1255 decodes.
    if (encoding === 'iso-8859-8-i') encoding = 'iso-8859-8';
    return { encoding, label: label.trim().toLowerCase() };
  } catch {
    return null;
  }
}

const isSingleByteLatinOrHebrew = (encoding: string) =>
  ['windows-1252', 'iso-8859-1', 'iso-8859-15', 'windows-1255', 'iso-8859-8'].includes(encoding);

export function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A byte string can be valid UTF-8 by accident only when it is plain ASCII; multi-byte sequences settle it. */
const hasMultiByteSequences = (bytes: Uint8Array) => bytes.some((byte) => byte >= 0x80);

/**
 * No label (or a wrong one): valid UTF-8 is UTF-8. Otherwise Hebrew in Windows-1255 writes words as runs
 * of bytes 0xE0–0xFA, while Latin text in Windows-1252 uses the same bytes as single accented letters
 * between ASCII ones ("café", "été"); the share of high bytes standing next to another tells them apart.
 */
export function sniffEncoding(bytes: Uint8Array): 'utf-8' | 'windows-1255' | 'windows-1252' {
  if (isValidUtf8(bytes)) return 'utf-8';
  let high = 0;
  let hebrewLetters = 0;
  let inRuns = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte < 0x80) continue;
    high++;
    if (byte >= 0xe0 && byte <= 0xfa) hebrewLetters++;
    if ((bytes[i - 1] ?? 0) >= 0x80 || (bytes[i + 1] ?? 0) >= 0x80) inRuns++;
  }
  if (high > 0 && hebrewLetters / high > 0.7 && inRuns / high > 0.6) return 'windows-1255';
  return 'windows-1252';
}
