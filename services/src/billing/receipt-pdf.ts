import type { Currency } from '@kesher/contracts';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

export interface ReceiptFacts {
  paymentId: string;
  paidAt: string;
  description: string;
  amount: number;
  currency: Currency;
  email: string;
  cardHolder: string | null;
  cardLast4: string | null;
}

/** "ILS 199.00": the standard PDF fonts have no ₪ glyph, so the code is written out. */
const money = (amount: number, currency: Currency) => `${currency} ${(amount / 100).toFixed(2)}`;

/**
 * A one-page receipt for a test payment, made with pdf-lib. Made on request from the recorded payment
 * (the facts never change), so nothing is stored. English only: the embedded standard fonts cover Latin
 * text; a Hebrew receipt would need a Hebrew font file shipped with the product.
 */
export async function receiptPdf(facts: ReceiptFacts): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Kesher receipt ${facts.paymentId}`);
  pdf.setCreator('Kesher');
  pdf.setCreationDate(new Date(facts.paidAt));
  pdf.setModificationDate(new Date(facts.paidAt));
  const page = pdf.addPage([595, 842]); // A4 in points
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  // Latin-1 only: anything else in user-given text (a card holder's name) is replaced, not an error.
  const safe = (text: string) => text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
  let y = 780;
  const line = (text: string, options: { size?: number; font?: typeof regular; gap?: number } = {}) => {
    page.drawText(safe(text), {
      x: 56,
      y,
      size: options.size ?? 12,
      font: options.font ?? regular,
      color: rgb(0.1, 0.1, 0.15),
    });
    y -= options.gap ?? 22;
  };
  line('Kesher', { size: 24, font: bold, gap: 34 });
  line('Receipt', { size: 18, font: bold, gap: 30 });
  line('TEST MODE - no real charge was made.', { size: 11, gap: 30 });
  line(`Receipt number: ${facts.paymentId}`);
  line(`Date: ${facts.paidAt.slice(0, 10)}`);
  line(`Billed to: ${facts.email}`);
  if (facts.cardHolder) line(`Card holder: ${facts.cardHolder}`);
  if (facts.cardLast4) line(`Card: **** **** **** ${facts.cardLast4}`, { gap: 34 });
  line(facts.description, { font: bold });
  line(`Amount paid: ${money(facts.amount, facts.currency)}`, { size: 14, font: bold, gap: 40 });
  line('Thank you for using Kesher.', { size: 11 });
  return pdf.save({ useObjectStreams: false });
}
