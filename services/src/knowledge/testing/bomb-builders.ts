import {
  constants,
  crc32,
  createDeflate,
  createDeflateRaw,
  createGzip,
  deflateRawSync,
  gzipSync,
  type Deflate,
  type DeflateRaw,
  type Gzip,
} from 'node:zlib';
import { docxParts, pptxParts, xlsxParts } from './office-builders.js';
import { assemblePdf } from './pdf-writer.js';

/**
 * Hostile files for tests and the isolation benchmark: decompression bombs in every format Kesher reads
 * and files whose structure, not size, is the attack. They are generated, never committed: each is
 * compressed piece by piece, so making a file that unpacks to 200 MiB never holds 200 MiB.
 */

interface Compressed {
  data: Buffer;
  /** Uncompressed size and CRC-32, as a zip's directory needs them. */
  size: number;
  crc: number;
}

const MiB = 1024 * 1024;

/** `head`, then `body` repeated until about `bytes` in all, then `tail`, compressed as it is produced. */
async function compressRepeated(
  input: { head: string; body: string; bytes: number; tail: string },
  format: 'raw' | 'zlib' | 'gzip',
): Promise<Compressed> {
  const options = { level: 9, memLevel: 9, strategy: constants.Z_DEFAULT_STRATEGY };
  const stream: Deflate | DeflateRaw | Gzip =
    format === 'raw' ? createDeflateRaw(options) : format === 'zlib' ? createDeflate(options) : createGzip(options);
  const out: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  let size = 0;
  let crc = 0;
  const write = async (chunk: Buffer) => {
    size += chunk.length;
    crc = crc32(chunk, crc);
    if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
  };
  await write(Buffer.from(input.head));
  const block = Buffer.from(input.body.repeat(Math.max(1, Math.floor(MiB / input.body.length))));
  const repeats = Math.max(0, Math.floor((input.bytes - input.head.length - input.tail.length) / block.length));
  for (let i = 0; i < repeats; i++) await write(block);
  await write(Buffer.from(input.tail));
  stream.end();
  await done;
  return { data: Buffer.concat(out), size, crc };
}

type ZipEntry = { name: string; method: 0 | 8 } & Compressed;

const deflatedPart = (name: string, text: string): ZipEntry => {
  const bytes = Buffer.from(text);
  return { name, method: 8, data: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
};

/** A plain zip (no zip64, no data descriptors), as every Office reader accepts. */
export function writeZip(entries: readonly ZipEntry[]): Uint8Array {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt16LE(0x21, 12); // 1980-01-01
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.data.length, 18);
    header.writeUInt32LE(entry.size, 22);
    header.writeUInt16LE(name.length, 26);
    local.push(header, name, entry.data);

    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(20, 4);
    record.writeUInt16LE(20, 6);
    record.writeUInt16LE(entry.method, 10);
    record.writeUInt16LE(0x21, 14);
    record.writeUInt32LE(entry.crc >>> 0, 16);
    record.writeUInt32LE(entry.data.length, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(name.length, 28);
    record.writeUInt32LE(offset, 42);
    central.push(record, name);
    offset += header.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...local, directory, end]));
}

/** Bomb options: what the zip's directory claims the bomb unpacks to (a liar claims little). */
export interface BombOptions {
  declaredSize?: number;
  /** The text repeated inside (default: a sentence of Lorem ipsum); one letter makes a tree of many small nodes. */
  text?: string;
}

/** An Office package built by office-builders with one part replaced by a compressed stream of our own. */
function officeWith(
  parts: Record<string, string>,
  path: string,
  part: Compressed,
  options: BombOptions = {},
): Uint8Array {
  return writeZip(
    Object.entries(parts).map(([name, xml]) =>
      name === path ? { name, method: 8, ...part, size: options.declaredSize ?? part.size } : deflatedPart(name, xml),
    ),
  );
}

const splitAround = (xml: string, marker: string) => {
  const at = xml.indexOf(marker);
  return { head: xml.slice(0, at), tail: xml.slice(at + marker.length) };
};

const LOREM = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt. ';

/** A Word document whose word/document.xml unpacks to about `bytes` (the issue's: 190 MB from a small file). */
export async function buildDocxBomb(bytes = 190 * 1000 * 1000, options: BombOptions = {}): Promise<Uint8Array> {
  const parts = docxParts([{ paragraph: 'MARKER' }]);
  const { head, tail } = splitAround(
    parts['word/document.xml']!,
    '<w:p><w:r><w:t xml:space="preserve">MARKER</w:t></w:r></w:p>',
  );
  const body = `<w:p><w:r><w:t xml:space="preserve">${options.text ?? LOREM}</w:t></w:r></w:p>`;
  return officeWith(parts, 'word/document.xml', await compressRepeated({ head, body, bytes, tail }, 'raw'), options);
}

/** A workbook whose one sheet unpacks to about `bytes`. */
export async function buildXlsxBomb(bytes = 190 * 1000 * 1000, options: BombOptions = {}): Promise<Uint8Array> {
  const parts = xlsxParts([{ name: 'Sheet', rows: [['MARKER']] }]);
  const { head, tail } = splitAround(
    parts['xl/worksheets/sheet1.xml']!,
    '<row r="1"><c r="A1" t="inlineStr"><is><t>MARKER</t></is></c></row>',
  );
  const body = `<row><c t="inlineStr"><is><t>${options.text ?? LOREM}</t></is></c><c><v>42</v></c></row>`;
  return officeWith(
    parts,
    'xl/worksheets/sheet1.xml',
    await compressRepeated({ head, body, bytes, tail }, 'raw'),
    options,
  );
}

/** A deck whose one slide unpacks to about `bytes`. */
export async function buildPptxBomb(bytes = 190 * 1000 * 1000, options: BombOptions = {}): Promise<Uint8Array> {
  const parts = pptxParts([{ body: ['MARKER'] }]);
  const { head, tail } = splitAround(parts['ppt/slides/slide1.xml']!, '<a:p><a:r><a:t>MARKER</a:t></a:r></a:p>');
  return officeWith(
    parts,
    'ppt/slides/slide1.xml',
    await compressRepeated(
      { head, body: `<a:p><a:r><a:t>${options.text ?? LOREM}</a:t></a:r></a:p>`, bytes, tail },
      'raw',
    ),
    options,
  );
}

/**
 * A Word document of `depth` paragraphs each nested in the one before (the issue's: two million in 33 KB).
 * Word never writes this; a parser that recurses or builds a tree per level is what it attacks.
 */
export function buildNestedDocx(depth = 2_000_000): Uint8Array {
  const parts = docxParts([{ paragraph: 'MARKER' }]);
  const document = parts['word/document.xml']!;
  const marker = '<w:p><w:r><w:t xml:space="preserve">MARKER</w:t></w:r></w:p>';
  const at = document.indexOf(marker);
  const head = document.slice(0, at) + '<w:p>'.repeat(depth) + '<w:r><w:t>deep</w:t></w:r>';
  const tail = '</w:p>'.repeat(depth) + document.slice(at + marker.length);
  const whole = Buffer.from(head + tail);
  return officeWith(parts, 'word/document.xml', {
    data: deflateRawSync(whole, { level: 9, memLevel: 9 }),
    size: whole.length,
    crc: crc32(whole),
  });
}

/** A PDF whose one page's content stream unpacks to about `bytes` of text-showing operators (the issue's: 200 MiB). */
export async function buildPdfBomb(
  bytes = 200 * MiB,
  options: { contentDictionary?: string } = {},
): Promise<Uint8Array> {
  // Long runs of one letter compress about 1000:1, so 200 MiB of them fit in about 200 KB (the file).
  const content = await compressRepeated(
    { head: 'BT /F1 11 Tf 72 700 Td 14 TL\n', body: `(${'A'.repeat(4000)}) Tj T*\n`, bytes, tail: 'ET\n' },
    'zlib',
  );
  return assemblePdf([content.data], options);
}

/**
 * A PDF with `operators` text operators on one page (the issue's: seven million in 916 KB), each placing
 * one letter at its own position (`Tm … Tj`), so pdf.js does the full work of a text item for every one.
 * Seven million unpack to about 200 MB and are refused at the unpack limit; one million (25 MB) are
 * within it and keep pdf.js busy for seconds — the file for the time limit.
 */
export async function buildPdfWithManyOperators(operators = 7_000_000): Promise<Uint8Array> {
  const body = Array.from(
    { length: 64 },
    (_, i) => `1 0 0 1 ${72 + (i % 8) * 6} ${700 - (i >> 3) * 12} Tm (${String.fromCharCode(97 + (i % 26))}) Tj\n`,
  ).join('');
  const content = await compressRepeated(
    { head: 'BT /F1 11 Tf\n', body, bytes: operators * (body.length / 64), tail: 'ET\n' },
    'zlib',
  );
  return assemblePdf([content.data]);
}

/** Gzip of about `bytes` of plain text, as a crawled page or a compressed upload arrives. */
export async function buildGzipBomb(bytes = 200 * MiB): Promise<Uint8Array> {
  return new Uint8Array((await compressRepeated({ head: '', body: LOREM, bytes, tail: '' }, 'gzip')).data);
}

/** Gzip of a small text, to show that compressed text files are read like any other. */
export const gzipText = (text: string): Uint8Array => new Uint8Array(gzipSync(Buffer.from(text)));

/** Packs LZW codes MSB-first at the widths PDF's LZWDecode (EarlyChange 1) reads them. */
class CodeWriter {
  private bytes: number[] = [];
  private buffer = 0;
  private bits = 0;
  width = 9;
  write(code: number) {
    this.buffer = (this.buffer << this.width) | code;
    this.bits += this.width;
    while (this.bits >= 8) {
      this.bytes.push((this.buffer >>> (this.bits - 8)) & 0xff);
      this.bits -= 8;
      this.buffer &= (1 << this.bits) - 1;
    }
  }
  finish(): Buffer {
    if (this.bits > 0) this.bytes.push((this.buffer << (8 - this.bits)) & 0xff);
    return Buffer.from(this.bytes);
  }
}

/** A plain LZW encoder (clear code first, end code last), for PDFs whose content is LZW-compressed. */
export function lzwEncode(input: Uint8Array): Buffer {
  const codes = new CodeWriter();
  let table = new Map<string, number>();
  let next = 258;
  const reset = () => {
    table = new Map();
    next = 258;
    codes.width = 9;
  };
  codes.write(256);
  let current = '';
  for (const byte of input) {
    const extended = current + String.fromCharCode(byte);
    if (extended.length === 1 || table.has(extended)) {
      current = extended;
      continue;
    }
    codes.write(current.length === 1 ? current.charCodeAt(0) : table.get(current)!);
    table.set(extended, next++);
    // The reader adds each entry one code later than the writer, so it widens one code later too.
    if (next >= 1 << codes.width && codes.width < 12) codes.width++;
    if (next >= 4094) {
      codes.write(256);
      reset();
    }
    current = String.fromCharCode(byte);
  }
  if (current) codes.write(current.length === 1 ? current.charCodeAt(0) : table.get(current)!);
  codes.write(257);
  return codes.finish();
}

/**
 * An LZW stream that unpacks to about `bytes` of the letter a: each code names the string one longer
 * than the last, so a table of 4,094 codes (6 KB) stands for 8 MB. Written as codes, not by encoding.
 */
export function lzwBomb(bytes: number): Buffer {
  const codes = new CodeWriter();
  let produced = 0;
  while (produced < bytes) {
    // The clear code is written at the width in use; the reader goes back to 9 bits after it.
    codes.write(256);
    codes.width = 9;
    codes.write(0x61);
    produced += 1;
    let length = 1;
    for (let next = 258; next < 4094 && produced < bytes;) {
      codes.write(next);
      length++;
      produced += length;
      next++;
      if (next + 1 >= 1 << codes.width && codes.width < 12) codes.width++;
    }
  }
  codes.write(257);
  return codes.finish();
}

/** A PDF with one page whose content stream is stored with the given filter (and the image-label trick, if asked). */
export function pdfWithContentStream(
  data: Uint8Array,
  filter: 'LZWDecode' | 'FlateDecode',
  options: { contentDictionary?: string } = {},
): Uint8Array {
  return assemblePdf([data], { ...options, filter });
}
