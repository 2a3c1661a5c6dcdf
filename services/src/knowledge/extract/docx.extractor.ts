import mammoth from 'mammoth';
import type { DraftSection } from './extracted-text.js';
import { ExtractionError, extractionErrors } from './extraction-error.js';
import { htmlToSections } from './html.extractor.js';
import { checkOfficeContainer } from './office-package.js';

/**
 * A Word document goes through mammoth, which knows Word's styles (so "Heading 1" becomes <h1> whatever
 * the document's language), then through the HTML rules, which split it into sections at its headings.
 */
export async function extractDocx(bytes: Uint8Array): Promise<DraftSection[]> {
  checkOfficeContainer(bytes, 'docx');
  try {
    const { value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
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
