import { registerServerTexts } from './server-texts';

/**
 * Hebrew for the server texts of Google Drive import, the channels and automation (contracts
 * google-drive.dto.ts, integrations.dto.ts, rules/automation.ts). Plain data, like server-texts.ts: the
 * contracts modules that hold these catalogues import zod, which the visitor build must not load, and the
 * owner entry registers them (main.tsx) so the visitor bundle does not carry them at all.
 */
const DRIVE_TEXTS: Record<string, string> = {
  'Please select files to import': 'נא לבחור קבצים לייבוא',
  'Please sign in to Google Drive first': 'נא להתחבר קודם ל-Google Drive',
  'Your Google Drive session has expired. Please connect again.': 'פג תוקף החיבור ל-Google Drive. נא להתחבר שוב.',
  'Google Drive is not set up on this server.': 'Google Drive לא הוגדר בשרת הזה.',
  'Failed to connect to Google Drive': 'החיבור ל-Google Drive נכשל',
  'Failed to load files from Google Drive': 'טעינת הקבצים מ-Google Drive נכשלה',
  'This file type cannot be imported.': 'אי אפשר לייבא סוג קובץ כזה.',
  'This Google Drive connection was started in another browser or session, so it was not completed. Please connect Google Drive again in this browser.':
    'החיבור ל-Google Drive התחיל בדפדפן או בחיבור אחר, ולכן לא הושלם. נא להתחבר שוב ל-Google Drive בדפדפן הזה.',
  'Not a Google Drive file id.': 'זה אינו מזהה של קובץ ב-Google Drive.',
  'The file is larger than the upload limit.': 'הקובץ גדול ממגבלת ההעלאה.',
  'Google Drive needs a paid plan. Upgrade on the pricing page to use it.': 'ייבוא מ-Google Drive דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  'Telegram needs a paid plan. Upgrade on the pricing page to use it.': 'טלגרם דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  'WhatsApp needs a paid plan. Upgrade on the pricing page to use it.': 'WhatsApp דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  'Instagram needs a paid plan. Upgrade on the pricing page to use it.': 'אינסטגרם דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  'Scheduled recrawl needs a paid plan. Upgrade on the pricing page to use it.': 'סריקה חוזרת מתוזמנת דורשת תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בה.',
  'Paused: your plan no longer includes scheduled recrawl, so the site is not crawled again on schedule. Upgrade on the pricing page, then save the crawl interval again to resume.':
    'מושהה: התוכנית שלכם כבר לא כוללת סריקה חוזרת מתוזמנת, ולכן האתר לא נסרק שוב לפי התזמון. שדרגו בעמוד המחירים ושמרו שוב את תדירות הסריקה כדי לחדש.',
};

const INTEGRATION_TEXTS: Record<string, string> = {
  'Please enter the Bot Token': 'נא להזין את טוקן הבוט',
  'Please provide both Access Token and Phone Number ID.': 'נא למלא גם טוקן גישה וגם מזהה מספר טלפון.',
  'Please provide both Page Access Token and Instagram Account ID.': 'נא למלא גם טוקן גישה של הדף וגם מזהה חשבון אינסטגרם.',
  'Failed to setup Telegram integration': 'הגדרת האינטגרציה עם טלגרם נכשלה',
  'Failed to setup WhatsApp integration': 'הגדרת האינטגרציה עם WhatsApp נכשלה',
  'Failed to setup Instagram integration': 'הגדרת האינטגרציה עם אינסטגרם נכשלה',
  'Telegram integration not found': 'לא נמצאה אינטגרציה עם טלגרם',
  'WhatsApp integration not found': 'לא נמצאה אינטגרציה עם WhatsApp',
  'Instagram integration not found': 'לא נמצאה אינטגרציה עם אינסטגרם',
  'Telegram integration disconnected': 'האינטגרציה עם טלגרם נותקה',
  'WhatsApp integration disconnected': 'האינטגרציה עם WhatsApp נותקה',
  'Instagram integration disconnected': 'האינטגרציה עם אינסטגרם נותקה',
  "An app secret is needed to verify Meta's signatures: enter your Meta app's App Secret (or ask the operator to set META_APP_SECRET).":
    'נדרש סוד אפליקציה כדי לאמת את החתימות של Meta: הזינו את ה-App Secret של אפליקציית Meta שלכם (או בקשו ממפעיל השרת להגדיר META_APP_SECRET).',
  'Take over this conversation before replying in it.': 'השתלטו על השיחה לפני שאתם עונים בה.',
  'The owner has taken over this conversation; the assistant does not answer it until it is handed back.': 'בעל העוזר השתלט על השיחה; העוזר לא יענה בה עד שתוחזר אליו.',
  "Only a customer's conversation (widget, share link or a channel) can be taken over.": 'אפשר להשתלט רק על שיחה של לקוח (וידג׳ט, קישור שיתוף או ערוץ).',
  'Phone Number ID must be digits': 'מזהה מספר הטלפון חייב להכיל ספרות בלבד',
  'Instagram Account ID must be digits': 'מזהה חשבון האינסטגרם חייב להכיל ספרות בלבד',
  'Message content cannot be empty': 'ההודעה לא יכולה להיות ריקה',
  'Message too long (max 4000 characters)': 'ההודעה ארוכה מדי (עד 4000 תווים)',
  'Paused: your plan no longer includes Telegram, so the assistant does not answer there. Upgrade on the pricing page to resume.':
    'מושהה: התוכנית שלכם כבר לא כוללת את טלגרם, ולכן העוזר לא עונה שם. שדרגו בעמוד המחירים כדי לחדש.',
  'Paused: your plan no longer includes WhatsApp, so the assistant does not answer there. Upgrade on the pricing page to resume.':
    'מושהה: התוכנית שלכם כבר לא כוללת את WhatsApp, ולכן העוזר לא עונה שם. שדרגו בעמוד המחירים כדי לחדש.',
  'Paused: your plan no longer includes Instagram, so the assistant does not answer there. Upgrade on the pricing page to resume.':
    'מושהה: התוכנית שלכם כבר לא כוללת את אינסטגרם, ולכן העוזר לא עונה שם. שדרגו בעמוד המחירים כדי לחדש.',
};

const VERBS: Record<string, string> = { create: 'יצירת', update: 'עדכון', delete: 'מחיקת' };
const THINGS: Record<string, string> = { workflow: 'תהליך העבודה', guideline: 'ההנחיה', action: 'הפעולה' };
/** The field and list names the automation forms' checks use, in Hebrew. */
const FIELDS: Record<string, string> = {
  Title: 'הכותרת',
  'Trigger condition': 'תנאי ההפעלה',
  Instructions: 'ההוראות',
  Message: 'ההודעה',
  Description: 'התיאור',
  'Endpoint URL': 'כתובת ה-API',
  'Body template': 'תבנית הגוף',
  'A training phrase': 'ביטוי אימון',
  'An input description': 'תיאור קלט',
  'linked actions': 'פעולות מקושרות',
  'training phrases': 'ביטויי אימון',
  headers: 'כותרות',
  inputs: 'קלטים',
  sources: 'מקורות',
  endpoints: 'נקודות קצה',
};
const field = (name: string) => FIELDS[name] ?? (name.startsWith('Header ') ? `הכותרת ${name.slice(7)}` : name);

const AUTOMATION_TEXTS: Record<string, string> = {
  'Test failed. Please check your API configuration.': 'הבדיקה נכשלה. נא לבדוק את הגדרות ה-API.',
  'Test successful!': 'הבדיקה הצליחה!',
  'No workflows yet': 'עדיין אין תהליכי עבודה',
  'Title is required': 'חובה להזין כותרת',
  'Trigger condition is required': 'חובה להזין תנאי הפעלה',
  'Instructions are required': 'חובה להזין הוראות',
  'Choose a category: tone, phrase, standardize, format or custom': 'בחרו קטגוריה: טון, ביטויים, אחידות, עיצוב או מותאם אישית',
  'Workflow not found.': 'תהליך העבודה לא נמצא.',
  'Guideline not found.': 'ההנחיה לא נמצאה.',
  'Action not found.': 'הפעולה לא נמצאה.',
  'Endpoint URL is required for an API action': 'לפעולת API חובה להזין כתובת',
  'The endpoint must be an http:// or https:// address': 'הכתובת חייבת להתחיל ב-http:// או ב-https://',
  'With a named endpoint, the endpoint is a path starting with /': 'עם נקודת קצה בעלת שם, הכתובת היא נתיב שמתחיל ב-/',
  'Body template must be JSON (placeholders in double braces reference inputs)': 'תבנית הגוף חייבת להיות JSON (מצייני מקום בסוגריים מסולסלים כפולים מפנים לקלטים)',
  'A GET action has no body template': 'לפעולת GET אין תבנית גוף',
  'Input names use letters, digits and _ (starting with a letter)': 'שמות קלטים מורכבים מאותיות, ספרות ו-_ (ומתחילים באות)',
  'Add at least one source to a knowledge base action': 'הוסיפו לפחות מקור אחד לפעולת מאגר ידע',
  'Header names use letters, digits and - only': 'שמות כותרות מורכבים מאותיות, ספרות ו-- בלבד',
  'This action calls a named endpoint: choose the assistant whose external API configuration it uses': 'הפעולה קוראת לנקודת קצה בעלת שם: בחרו את העוזר שהגדרות ה-API החיצוני שלו משמשות אותה',
  'Endpoint names use letters, digits, _ and - (at most 40)': 'שמות נקודות קצה מורכבים מאותיות, ספרות, _ ו-- (עד 40)',
  'This assistant has no external API configuration.': 'לעוזר הזה אין הגדרות API חיצוני.',
};

/** The catalogue's texts with values in them, recognised by their English form. */
const MORE_TEMPLATES: { pattern: RegExp; he: (...parts: string[]) => string }[] = [
  { pattern: /^(.+) could not be reached: (.+)$/s, he: (channel, reason) => `לא הצלחנו להגיע אל ${channel}: ${reason}` },
  { pattern: /^Failed to (create|update|delete) (workflow|guideline|action)\. Please try again\.$/, he: (verb, what) => `${VERBS[verb!]} ${THINGS[what!]} נכשלה. נא לנסות שוב.` },
  { pattern: /^Are you sure you want to delete this (workflow|guideline|action)\?$/, he: (what) => `למחוק את ${THINGS[what!]}?` },
  { pattern: /^(.+) is too long \(max ([\d,]+) characters\)$/, he: (name, max) => `${field(name!)} ארוך מדי (עד ${max} תווים)` },
  { pattern: /^Too many (.+) \(max (\d+)\)$/, he: (what, max) => `יותר מדי ${field(what!)} (עד ${max})` },
  { pattern: /^Linked action (.+) does not exist\.$/, he: (id) => `הפעולה המקושרת ${id} לא קיימת.` },
  { pattern: /^You can have at most (\d+) workflows\.$/, he: (max) => `אפשר ליצור עד ${max} תהליכי עבודה.` },
  { pattern: /^You can have at most (\d+) guidelines\.$/, he: (max) => `אפשר ליצור עד ${max} הנחיות.` },
  { pattern: /^You can have at most (\d+) actions\.$/, he: (max) => `אפשר ליצור עד ${max} פעולות.` },
  { pattern: /^(.+): malformed template — placeholders are written \{\{input_name\}\}$/, he: (where) => `${field(where!)}: תבנית שגויה — מצייני מקום נכתבים כך: {{input_name}}` },
  { pattern: /^(.+): unknown placeholder \{\{(.+)\}\} — add an input named "(.+)" or remove it$/, he: (where, name) => `${field(where!)}: מציין מקום לא מוכר {{${name}}} — הוסיפו קלט בשם "${name}" או הסירו אותו` },
  { pattern: /^Input "(.+)" is listed twice$/, he: (name) => `הקלט "${name}" מופיע פעמיים` },
  { pattern: /^Missing required input "(.+)"$/, he: (name) => `חסר קלט חובה "${name}"` },
  { pattern: /^No external API endpoint named "(.+)" is configured for this assistant$/, he: (name) => `לא הוגדרה לעוזר הזה נקודת קצה בשם "${name}"` },
  { pattern: /^Endpoint "(.+)" is listed twice$/, he: (name) => `נקודת הקצה "${name}" מופיעה פעמיים` },
  { pattern: /^The API did not answer within (\d+) ms$/, he: (ms) => `ה-API לא ענה תוך ${ms} מילישניות` },
  { pattern: /^The API's response is larger than (\d+) KB$/, he: (kb) => `התשובה של ה-API גדולה מ-${kb} KB` },
  { pattern: /^The API answered with HTTP (\d+)$/, he: (status) => `ה-API ענה ב-HTTP ${status}` },
  { pattern: /^The address was refused: (.+)$/s, he: (reason) => `הכתובת נדחתה: ${reason}` },
  { pattern: /^The API could not be reached: (.+)$/s, he: (reason) => `לא הצלחנו להגיע ל-API: ${reason}` },
  { pattern: /^The API's response is not JSON \((.+)\)$/, he: (type) => `התשובה של ה-API אינה JSON (${type === 'no content type' ? 'ללא סוג תוכן' : type})` },
  { pattern: /^Input "(.+)" must be a (number|boolean|string)$/, he: (name, type) => `הקלט "${name}" חייב להיות ${type === 'number' ? 'מספר' : type === 'boolean' ? 'ערך אמת/שקר' : 'טקסט'}` },
];

registerServerTexts({ exact: { ...DRIVE_TEXTS, ...INTEGRATION_TEXTS, ...AUTOMATION_TEXTS }, templates: MORE_TEMPLATES });
