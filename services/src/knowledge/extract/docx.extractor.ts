import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';
import { htmlToSections } from './html.extractor.js';
import { openOfficePackage } from './office-package.js';
import { scanXml } from './xml-tree.js';

/** Parts mammoth reads: the document, its styles, numbering, notes and comments, and their relationships. Media stays packed. */
const isMarkup = (path: string) => path.endsWith('.xml') || path.endsWith('.rels');

/**
 * A Word document goes through mammoth, which knows Word's styles (so "Heading 1" becomes <h1> whatever
 * the document's language), then through the HTML rules, which split it into sections at its headings.
 *
 * mammoth unzips and parses whatever it is given, so it is not given the upload: the parts are unpacked
 * here within the file's UnpackBudget, scanned for nesting depth and amount of text, and handed over as a
 * new, uncompressed package holding exactly the bytes that were checked.
 */
export async function extractDocx(bytes: Uint8Array): Promise<DraftSection[]> {
  const pkg = openOfficePackage(bytes, 'docx', isMarkup);
  const budget = new CharacterBudget();
  try {
    for (const path of pkg.paths()) if (path.endsWith('.xml')) scanXml(pkg.text(path)!, { textBudget: budget });
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw extractionErrors.corrupt('docx', error);
  }
  const checked = zipSync(Object.fromEntries(pkg.parts()), { level: 0 });
  try {
    const { value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(checked.buffer, checked.byteOffset, checked.byteLength) },
      {
        // Images would be inlined as base64 only to be thrown away; linked files must never be read.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
        externalFileAccess: false,
      },
    );
    return htmlToSections(html);
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    throw extractionErrors.corrupt('docx', error);
  }
}
