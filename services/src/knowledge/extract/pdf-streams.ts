import { createInflate } from 'node:zlib';
import { ExtractionError } from './extraction-error.js';
import { UnpackBudget } from './unpack-budget.js';

/**
 * pdf.js inflates a page's content streams itself, into one growing buffer, with no limit: a 200 KB
 * PDF whose content stream unpacks to 200 MiB made it allocate and lex all of it. So before pdf.js sees
 * a PDF, every stream it could read text from is decoded here, counting the output against the file's
 * UnpackBudget and stopping at the limit (the output is counted and dropped, never kept whole).
 *
 * Which streams: all of them except images (pdf.js never decodes an image to find text) — unless a
 * page's /Contents points at one, since pdf.js reads a page's content whatever its dictionary says.
 * Object streams are decoded too, and kept, because the page dictionaries naming those contents may
 * live inside them. Filters decoded: Flate, LZW, RunLength and the two ASCII ones, in any chain; the
 * image codecs (DCT, JPX, JBIG2, CCITT) end the chain, as they never produce text.
 *
 * What this does not see: streams of an encrypted PDF (pdf.js decrypts them with the empty user
 * password; they look like noise to us). For those the sandbox's memory cap and time limit remain.
 */
export async function checkPdfStreams(bytes: Uint8Array, budget = new UnpackBudget()): Promise<void> {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const streams = findStreams(source, bytes);
  const contents = new Set<number>();
  collectContentReferences(source, contents);

  for (const stream of streams.filter((s) => s.objectStream)) {
    const decoded = await decodeStream(stream, budget, true);
    if (!decoded) continue;
    const text = decoded.toString('latin1');
    collectContentReferences(text, contents);
    // The format forbids streams inside object streams; a reader that tolerates them would find them here.
    streams.push(...findStreams(text, decoded).filter((inner) => !inner.objectStream));
  }
  for (const stream of streams) {
    if (stream.objectStream) continue;
    if (stream.skippable && !(stream.objectNumber !== undefined && contents.has(stream.objectNumber))) continue;
    await decodeStream(stream, budget, false);
  }
}

interface PdfStream {
  objectNumber: number | undefined;
  filters: string[];
  earlyChange: number;
  data: Uint8Array;
  objectStream: boolean;
  /** An image or an embedded file: never read for text unless a page names it as its contents. */
  skippable: boolean;
}

const FILTER_NAMES: Record<string, string> = {
  Fl: 'FlateDecode',
  LZW: 'LZWDecode',
  RL: 'RunLengthDecode',
  AHx: 'ASCIIHexDecode',
  A85: 'ASCII85Decode',
};

/** The last value of a name-valued key: pdf.js keeps the last of duplicate keys, so must we. */
function lastName(dictionary: string, key: string): string | undefined {
  const matches = [...dictionary.matchAll(new RegExp(`/${key}\\s*/([^\\s/<>\\[\\]()]+)`, 'g'))];
  return matches.at(-1)?.[1];
}

function findStreams(source: string, bytes: Uint8Array): PdfStream[] {
  const streams: PdfStream[] = [];
  // `>>`, then whitespace and comments, then the keyword: pdf.js's lexer skips both, so must we.
  const keyword = />>(?:\s|%[^\r\n]*[\r\n])*stream(?:\r\n|\r|\n)/g;
  for (let match = keyword.exec(source); match; match = keyword.exec(source)) {
    const dictionaryEnd = match.index + 2;
    const dictionaryStart = openingOf(source, match.index);
    // A dictionary we cannot find still opens a stream pdf.js may read: without its filters, it is
    // treated as Flate when it starts like zlib data (below), and counted as such.
    const dictionary = dictionaryStart < 0 ? '' : source.slice(dictionaryStart, dictionaryEnd);
    const dataStart = match.index + match[0].length;
    const declared = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictionary);
    let dataEnd = declared ? dataStart + Number(declared[1]) : -1;
    if (dataEnd < 0 || dataEnd > source.length || !/^\s*endstream/.test(source.slice(dataEnd, dataEnd + 32))) {
      const end = source.indexOf('endstream', dataStart);
      dataEnd = end < 0 ? source.length : end;
    }
    const filterValue = /\/Filter\s*(\[[^\]]*\]|\/[^\s/<>[\]()]+)/.exec(dictionary)?.[1] ?? '';
    let filters = [...filterValue.matchAll(/\/([^\s/<>[\]()]+)/g)].map((m) => FILTER_NAMES[m[1]!] ?? m[1]!);
    if (dictionaryStart < 0) filters = looksLikeZlib(bytes, dataStart) ? ['FlateDecode'] : [];
    const objectNumber =
      dictionaryStart < 0
        ? undefined
        : /(\d+)\s+\d+\s+obj\s*$/.exec(source.slice(Math.max(0, dictionaryStart - 40), dictionaryStart))?.[1];
    const subtype = lastName(dictionary, 'Subtype');
    const type = lastName(dictionary, 'Type');
    streams.push({
      objectNumber: objectNumber === undefined ? undefined : Number(objectNumber),
      filters,
      earlyChange: /\/EarlyChange\s+0/.test(dictionary) ? 0 : 1,
      data: bytes.subarray(dataStart, dataEnd),
      objectStream: type === 'ObjStm',
      skippable: subtype === 'Image' || (type === 'EmbeddedFile' && subtype !== 'Form'),
    });
    keyword.lastIndex = dataEnd;
  }
  return streams;
}

/** A zlib header: deflate with a window up to 32 KiB, and a check value that makes the two bytes a multiple of 31. */
const looksLikeZlib = (bytes: Uint8Array, at: number) =>
  (bytes[at]! & 0x0f) === 8 && bytes[at]! >> 4 <= 7 && ((bytes[at]! << 8) | bytes[at + 1]!) % 31 === 0;

/**
 * Where the dictionary closed by the `>>` at `close` opens, counting nested dictionaries; -1 if an
 * object's end comes first (a stream keyword with no dictionary of its own). However long the
 * dictionary, it is found: padding one out must not hide its filters.
 */
function openingOf(source: string, close: number): number {
  let depth = 0;
  for (let at = close + 1; at >= 1; at--) {
    const char = source[at];
    if (char === '>' && source[at - 1] === '>') {
      depth++;
      at--;
    } else if (char === '<' && source[at - 1] === '<') {
      depth--;
      at--;
      if (depth === 0) return at;
    } else if (char === 'j' && source.startsWith('endobj', at - 5)) return -1;
  }
  return -1;
}

function collectContentReferences(text: string, into: Set<number>) {
  for (const match of text.matchAll(/\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/g)) {
    for (const reference of match[1]!.matchAll(/(\d+)\s+\d+\s+R/g)) into.add(Number(reference[1]));
  }
}

/**
 * Runs the stream's filters, counting every stage's output. Damaged data ends a stage where it breaks,
 * as in pdf.js, and what came out until then still counts. Returns the output only when `keep` is set.
 */
async function decodeStream(stream: PdfStream, budget: UnpackBudget, keep: boolean): Promise<Buffer | undefined> {
  let data: Uint8Array = stream.data;
  for (const [index, filter] of stream.filters.entries()) {
    const last = index === stream.filters.length - 1;
    const keepThis = keep || !last;
    let output: Buffer | undefined;
    if (filter === 'FlateDecode') output = await inflateCounted(data, budget, keepThis);
    else if (filter === 'LZWDecode') output = lzwDecode(data, stream.earlyChange, budget, keepThis);
    else if (filter === 'RunLengthDecode') output = runLengthDecode(data, budget, keepThis);
    else if (filter === 'ASCIIHexDecode') output = asciiHexDecode(data);
    else if (filter === 'ASCII85Decode') output = ascii85Decode(data);
    else return undefined; // an image codec or a filter pdf.js cannot read either: no text comes out of it
    if (!output) return undefined;
    data = output;
  }
  return keep ? Buffer.from(data) : undefined;
}

/**
 * Inflates within the budget. Most streams are whole and small, so zlib's one-call inflate does it; a
 * damaged one makes that throw without saying how much came out first, so it is inflated again in
 * chunks, counting each, up to where it breaks.
 */
async function inflateCounted(data: Uint8Array, budget: UnpackBudget, keep: boolean): Promise<Buffer | undefined> {
  try {
    return budget.inflate(data, 'zlib', { truncated: 'keep' });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    return inflateInChunks(data, budget, keep);
  }
}

function inflateInChunks(data: Uint8Array, budget: UnpackBudget, keep: boolean): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const inflate = createInflate();
    const kept: Buffer[] = [];
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(keep ? Buffer.concat(kept) : Buffer.alloc(0));
    };
    inflate.on('data', (chunk: Buffer) => {
      try {
        budget.take(chunk.length);
      } catch (error) {
        inflate.destroy();
        finish(error);
        return;
      }
      if (keep) kept.push(chunk);
    });
    inflate.on('end', () => finish());
    // Damaged or truncated data: pdf.js stops there too, keeping what it had. Counted already.
    inflate.on('error', () => finish());
    inflate.end(data);
  });
}

/** PDF's LZW (TIFF-style, 9–12 bit codes). Entry lengths are tracked so the output can be counted without keeping it. */
function lzwDecode(data: Uint8Array, earlyChange: number, budget: UnpackBudget, keep: boolean): Buffer | undefined {
  const prefix = new Int32Array(4096);
  const suffix = new Uint8Array(4096);
  const length = new Int32Array(4096);
  const firstByte = new Uint8Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    suffix[i] = i;
    length[i] = 1;
    firstByte[i] = i;
  }
  const out: number[] = [];
  const chunks: Buffer[] = [];
  const flushOut = () => {
    if (keep && out.length) chunks.push(Buffer.from(out));
    out.length = 0;
  };
  let next = 258;
  let codeLength = 9;
  let previous = -1;
  let bitBuffer = 0;
  let bitCount = 0;
  const entry = (code: number): number[] => {
    const bytes: number[] = new Array(length[code]!);
    for (let c = code, i = length[code]! - 1; i >= 0; c = prefix[c]!, i--) bytes[i] = suffix[c]!;
    return bytes;
  };
  for (let i = 0; i < data.length; i++) {
    bitBuffer = (bitBuffer << 8) | data[i]!;
    bitCount += 8;
    while (bitCount >= codeLength) {
      const code = (bitBuffer >>> (bitCount - codeLength)) & ((1 << codeLength) - 1);
      bitCount -= codeLength;
      bitBuffer &= (1 << bitCount) - 1;
      if (code === 256) {
        next = 258;
        codeLength = 9;
        previous = -1;
        continue;
      }
      if (code === 257) {
        flushOut();
        return keep ? Buffer.concat(chunks) : Buffer.alloc(0);
      }
      // A code that is not in the table yet (beyond the next one) is damaged data: the stream ends here.
      if ((previous < 0 && code > 255) || code > next) {
        flushOut();
        return keep ? Buffer.concat(chunks) : Buffer.alloc(0);
      }
      let produced: number;
      if (previous < 0) {
        produced = 1;
        if (keep) out.push(code);
      } else {
        const first = code < next ? firstByte[code]! : firstByte[previous]!;
        if (next < 4096) {
          prefix[next] = previous;
          suffix[next] = first;
          length[next] = length[previous]! + 1;
          firstByte[next] = firstByte[previous]!;
          next++;
        }
        produced = length[code]!;
        if (keep) out.push(...entry(code));
      }
      budget.take(produced);
      if (out.length > 65_536) flushOut();
      previous = code;
      if (next + earlyChange >= 1 << codeLength && codeLength < 12) codeLength++;
    }
  }
  flushOut();
  return keep ? Buffer.concat(chunks) : Buffer.alloc(0);
}

function runLengthDecode(data: Uint8Array, budget: UnpackBudget, keep: boolean): Buffer {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length;) {
    const n = data[i]!;
    if (n === 128) break;
    if (n < 128) {
      budget.take(n + 1);
      if (keep) chunks.push(Buffer.from(data.subarray(i + 1, i + 2 + n)));
      i += n + 2;
    } else {
      budget.take(257 - n);
      if (keep && i + 1 < data.length) chunks.push(Buffer.alloc(257 - n, data[i + 1]!));
      i += 2;
    }
  }
  return keep ? Buffer.concat(chunks) : Buffer.alloc(0);
}

function asciiHexDecode(data: Uint8Array): Buffer {
  const text = Buffer.from(data).toString('latin1');
  const end = text.indexOf('>');
  const digits = (end < 0 ? text : text.slice(0, end)).replace(/[^0-9a-fA-F]/g, '');
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}

function ascii85Decode(data: Uint8Array): Buffer {
  const text = Buffer.from(data).toString('latin1');
  const end = text.indexOf('~>');
  const body = (end < 0 ? text : text.slice(0, end)).replace(/\s/g, '');
  const out: number[] = [];
  let group: number[] = [];
  const emit = (values: number[], count: number) => {
    let n = 0;
    for (const v of values) n = n * 85 + v;
    for (let i = 0; i < count; i++) out.push((n >>> (24 - 8 * i)) & 0xff);
  };
  for (const char of body) {
    if (char === 'z' && group.length === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    const value = char.charCodeAt(0) - 33;
    if (value < 0 || value > 84) continue;
    group.push(value);
    if (group.length === 5) {
      emit(group, 4);
      group = [];
    }
  }
  if (group.length > 1) {
    const count = group.length - 1;
    while (group.length < 5) group.push(84);
    emit(group, count);
  }
  return Buffer.from(out);
}
