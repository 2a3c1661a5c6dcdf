import type { KnowledgeFileKind } from '@kesher/contracts';
import type { CharacterBudget } from './extracted-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';
import { UnpackBudget } from './unpack-budget.js';
import { parseXml, type XmlElement } from './xml-tree.js';
import { listZipEntries, readZipEntry } from './zip-archive.js';

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
/** OLE compound file: what Office writes for password-protected .docx/.xlsx/.pptx and for the old binary formats. */
const COMPOUND_FILE_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((byte, i) => bytes[i] === byte);

/** UTF-16LE bytes of a stream name, as it appears in a compound file's directory. */
const utf16 = (name: string) => new Uint8Array([...name].flatMap((char) => [char.charCodeAt(0), 0]));

function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  const limit = haystack.length - needle.length;
  outer: for (let i = 0; i <= limit; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * An Office Open XML file opened for reading. An encrypted one is not a zip at all but a compound file
 * holding an `EncryptedPackage` stream; a compound file without it is the old binary format (.doc, .xls,
 * .ppt) saved under a new name.
 */
export function checkOfficeContainer(bytes: Uint8Array, kind: KnowledgeFileKind): void {
  if (startsWith(bytes, COMPOUND_FILE_MAGIC)) {
    if (contains(bytes, utf16('EncryptedPackage')) || contains(bytes, utf16('EncryptionInfo')))
      throw extractionErrors.encrypted(kind);
    throw extractionErrors.legacyOffice(kind);
  }
  if (!startsWith(bytes, ZIP_MAGIC)) throw extractionErrors.corrupt(kind);
}

export interface OfficePackage {
  /** The part's XML, parsed; undefined when the package has no such part. */
  xml(path: string, options?: { textBudget?: CharacterBudget }): XmlElement | undefined;
  /** The part's text (for parsers that stream it rather than build a tree). */
  text(path: string): string | undefined;
  has(path: string): boolean;
  paths(): string[];
  /** Every part that was read, as bytes (to hand a checked copy of the package to a library). */
  parts(): ReadonlyMap<string, Uint8Array>;
}

/**
 * Unzips only the parts `wanted` selects, all of them against one UnpackBudget: a package whose parts
 * would unpack past knowledgeLimits.maxUnpackedBytes stops there ("too large when unpacked"). When a
 * name appears twice only the first copy is read, so that nothing after us sees a part we did not check.
 */
export function openOfficePackage(
  bytes: Uint8Array,
  kind: KnowledgeFileKind,
  wanted: (path: string) => boolean,
): OfficePackage {
  checkOfficeContainer(bytes, kind);
  const budget = new UnpackBudget();
  const parts = new Map<string, Uint8Array>();
  try {
    for (const entry of listZipEntries(bytes)) {
      if (!wanted(entry.name) || parts.has(entry.name)) continue;
      parts.set(entry.name, readZipEntry(bytes, entry, budget));
    }
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw extractionErrors.corrupt(kind, error);
  }
  const decoder = new TextDecoder('utf-8');
  const text = (path: string) => {
    const part = parts.get(path);
    return part && decoder.decode(part);
  };
  return {
    xml(path, options = {}) {
      const source = text(path);
      if (source === undefined) return undefined;
      try {
        return parseXml(source, { textBudget: options.textBudget });
      } catch (error) {
        if (error instanceof ExtractionError) throw error;
        throw extractionErrors.corrupt(kind, error);
      }
    },
    text,
    has: (path) => parts.has(path),
    paths: () => [...parts.keys()],
    parts: () => parts,
  };
}

/** Resolves a relationship target against the folder of the part that refers to it. */
export function resolvePartPath(fromPart: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const segments = fromPart.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.') segments.push(segment);
  }
  return segments.join('/');
}

/** The relationships of a part (`word/document.xml` → `word/_rels/document.xml.rels`), id → resolved target path. */
export function partRelationships(pkg: OfficePackage, part: string): Map<string, { type: string; path: string }> {
  const folder = part.split('/').slice(0, -1).join('/');
  const file = part.split('/').pop()!;
  const rels = pkg.xml(`${folder ? `${folder}/` : ''}_rels/${file}.rels`);
  const map = new Map<string, { type: string; path: string }>();
  if (!rels) return map;
  const walk = (element: XmlElement) => {
    for (const child of element.children) {
      if (typeof child === 'string') continue;
      if (
        child.name === 'Relationship' &&
        child.attributes.Id &&
        child.attributes.Target &&
        child.attributes.TargetMode !== 'External'
      ) {
        map.set(child.attributes.Id, {
          type: child.attributes.Type ?? '',
          path: resolvePartPath(part, child.attributes.Target),
        });
      } else walk(child);
    }
  };
  walk(rels);
  return map;
}
