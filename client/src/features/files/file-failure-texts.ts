import { registerServerTexts } from '@/lib/server-texts';

/**
 * Hebrew for why a knowledge file could not be read (services knowledge/extract/extraction-error.ts and
 * the ingest worker's unreadable-file reason): the file list shows the server's reason under "Failed",
 * so the owner learns what to do instead of guessing. Registered when the files feature loads.
 */
const KIND_NAMES: Record<string, string> = {
  'PDF file': 'קובץ PDF',
  'Word document (.docx)': 'מסמך Word ‏(‎.docx‎)',
  'Excel workbook (.xlsx)': 'חוברת Excel ‏(‎.xlsx‎)',
  'PowerPoint presentation (.pptx)': 'מצגת PowerPoint ‏(‎.pptx‎)',
  'CSV file': 'קובץ CSV',
  'JSON file': 'קובץ JSON',
  'Markdown file': 'קובץ Markdown',
  'text file': 'קובץ טקסט',
  'web page': 'דף אינטרנט',
};

registerServerTexts({
  exact: {
    ...KIND_NAMES,
    'The PDF is password-protected. Remove the password and upload it again.':
      'קובץ ה-PDF מוגן בסיסמה. הסירו את הסיסמה והעלו אותו שוב.',
    'No text could be found in this file. If it is a scanned document, run it through text recognition (OCR) first.':
      'לא נמצא טקסט בקובץ. אם זה מסמך סרוק, העבירו אותו קודם זיהוי טקסט (OCR).',
    'No text could be found in this file.': 'לא נמצא טקסט בקובץ.',
    'The file is too large when unpacked: its compressed content expands to more than Kesher reads from one file. Split it into smaller files and upload them separately.':
      'הקובץ גדול מדי כשהוא נפתח: התוכן הדחוס שלו מתרחב מעבר למה ש-Kesher קורא מקובץ אחד. פצלו אותו לקבצים קטנים יותר והעלו אותם בנפרד.',
    'The file could not be read: reading it failed several times. Upload it again, or save it in another format and upload that.':
      'לא הצלחנו לקרוא את הקובץ: הקריאה נכשלה כמה פעמים. העלו אותו שוב, או שמרו אותו בפורמט אחר והעלו את זה.',
  },
  templates: [
    {
      code: 'ingest.corrupt',
      pattern: /^The file could not be read: it looks damaged or is not a real (.+)\.$/,
      he: (kind) => `לא הצלחנו לקרוא את הקובץ: נראה שהוא פגום או שאינו ${kind} אמיתי.`,
    },
    {
      code: 'ingest.encrypted',
      pattern: /^The (.+) is password-protected\. Remove the password and upload it again\.$/,
      he: (kind) => `ה${kind} מוגן בסיסמה. הסירו את הסיסמה והעלו אותו שוב.`,
    },
    {
      code: 'ingest.tooMuchText',
      pattern:
        /^The file has too much text: more than ([\d,]+) characters\. Split it into smaller files and upload them separately\.$/,
      he: (n) => `יש בקובץ יותר מדי טקסט: יותר מ-${n} תווים. פצלו אותו לקבצים קטנים יותר והעלו אותם בנפרד.`,
    },
    {
      code: 'ingest.tooBigToRead',
      pattern:
        /^The file is too large to read \(over (\d+) MB\)\. Split it into smaller files and upload them separately\.$/,
      he: (n) => `הקובץ גדול מדי לקריאה (מעל ${n} MB). פצלו אותו לקבצים קטנים יותר והעלו אותם בנפרד.`,
    },
    {
      code: 'ingest.tookTooLong',
      pattern:
        /^The file took too long to read \(more than (\d+) seconds\)\. Split it into smaller files or save it in a simpler format, then upload it again\.$/,
      he: (n) =>
        `קריאת הקובץ ארכה יותר מדי (יותר מ-${n} שניות). פצלו אותו לקבצים קטנים יותר או שמרו אותו בפורמט פשוט יותר, ואז העלו אותו שוב.`,
    },
    {
      code: 'ingest.legacyOffice',
      pattern:
        /^This is an older Office format, not a (.+)\. Open it and save it as (\.docx|\.xlsx|\.pptx), then upload it again\.$/,
      he: (kind, extension) =>
        `זה פורמט Office ישן, לא ${kind}. פתחו אותו ושמרו אותו כ-${extension}, ואז העלו אותו שוב.`,
    },
  ],
});
