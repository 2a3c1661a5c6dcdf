import { planMessages } from '@kesher/contracts/http/errors-catalogue';
import { catalogueTexts, registerServerTexts } from './server-texts';

/**
 * Hebrew for the server texts of Google Drive import, the channels and automation (contracts
 * google-drive.dto.ts, integrations.dto.ts, rules/automation.ts). Plain data, like server-texts.ts: the
 * contracts modules that hold these catalogues import zod, which the visitor build must not load, and the
 * owner entry registers them (main.tsx) so the visitor bundle does not carry them at all.
 */
const DRIVE_TEXTS = catalogueTexts('drive', {
  selectFiles: ['Please select files to import', 'נא לבחור קבצים לייבוא'],
  signInFirst: ['Please sign in to Google Drive first', 'נא להתחבר קודם ל-Google Drive'],
  sessionExpired: [
    'Your Google Drive session has expired. Please connect again.',
    'פג תוקף החיבור ל-Google Drive. נא להתחבר שוב.',
  ],
  notConfigured: ['Google Drive is not set up on this server.', 'Google Drive לא הוגדר בשרת הזה.'],
  connectFailed: ['Failed to connect to Google Drive', 'החיבור ל-Google Drive נכשל'],
  loadFailed: ['Failed to load files from Google Drive', 'טעינת הקבצים מ-Google Drive נכשלה'],
  unsupportedType: ['This file type cannot be imported.', 'אי אפשר לייבא סוג קובץ כזה.'],
  otherBrowser: [
    'This Google Drive connection was started in another browser or session, so it was not completed. Please connect Google Drive again in this browser.',
    'החיבור ל-Google Drive התחיל בדפדפן או בחיבור אחר, ולכן לא הושלם. נא להתחבר שוב ל-Google Drive בדפדפן הזה.',
  ],
});

const CRAWLER_SCHEDULE_TEXTS = catalogueTexts('crawler', {
  schedulePaused: [
    'Paused: your plan no longer includes scheduled recrawl, so the site is not crawled again on schedule. Upgrade on the pricing page, then save the crawl interval again to resume.',
    'מושהה: התוכנית שלכם כבר לא כוללת סריקה חוזרת מתוזמנת, ולכן האתר לא נסרק שוב לפי התזמון. שדרגו בעמוד המחירים ושמרו שוב את תדירות הסריקה כדי לחדש.',
  ],
  scheduleSwitchedOff: [
    "Paused: the crawler is turned off on the assistant's Edit page, so the site is not crawled again on schedule. Turn it on there to resume.",
    'מושהה: סורק האתר כבוי בעמוד העריכה של העוזר, ולכן האתר לא נסרק שוב לפי התזמון. הפעילו אותו שם כדי לחדש.',
  ],
});

/** Texts of the Drive routes outside the catalogues (Google Drive's client and a file id check; no code yet). */
const DRIVE_MORE_TEXTS: Record<string, string> = {
  'Not a Google Drive file id.': 'זה אינו מזהה של קובץ ב-Google Drive.',
  'The file is larger than the upload limit.': 'הקובץ גדול ממגבלת ההעלאה.',
};

/** The plans' paid features (contracts errors.catalogue.ts planMessages), by code. */
const PLAN_TEXTS = catalogueTexts('plan', {
  'needsPaidPlan.telegram': [
    planMessages.needsPaidPlan.telegram,
    'טלגרם דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  ],
  'needsPaidPlan.whatsapp': [
    planMessages.needsPaidPlan.whatsapp,
    'WhatsApp דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  ],
  'needsPaidPlan.instagram': [
    planMessages.needsPaidPlan.instagram,
    'אינסטגרם דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  ],
  'needsPaidPlan.scheduled_recrawl': [
    planMessages.needsPaidPlan.scheduled_recrawl,
    'סריקה חוזרת מתוזמנת דורשת תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בה.',
  ],
  'needsPaidPlan.google_drive': [
    planMessages.needsPaidPlan.google_drive,
    'ייבוא מ-Google Drive דורש תוכנית בתשלום. שדרגו בעמוד המחירים כדי להשתמש בו.',
  ],
  filesCheckNeedsAssistant: [planMessages.filesCheckNeedsAssistant, 'כדי לבדוק את מגבלת הקבצים יש לציין assistant_id.'],
});

const INTEGRATION_TEXTS = catalogueTexts('integration', {
  telegramTokenRequired: ['Please enter the Bot Token', 'נא להזין את טוקן הבוט'],
  whatsappFieldsRequired: [
    'Please provide both Access Token and Phone Number ID.',
    'נא למלא גם טוקן גישה וגם מזהה מספר טלפון.',
  ],
  instagramFieldsRequired: [
    'Please provide both Page Access Token and Instagram Account ID.',
    'נא למלא גם טוקן גישה של הדף וגם מזהה חשבון אינסטגרם.',
  ],
  'setupFailed.telegram': ['Failed to setup Telegram integration', 'הגדרת האינטגרציה עם טלגרם נכשלה'],
  'setupFailed.whatsapp': ['Failed to setup WhatsApp integration', 'הגדרת האינטגרציה עם WhatsApp נכשלה'],
  'setupFailed.instagram': ['Failed to setup Instagram integration', 'הגדרת האינטגרציה עם אינסטגרם נכשלה'],
  'notConnected.telegram': ['Telegram integration not found', 'לא נמצאה אינטגרציה עם טלגרם'],
  'notConnected.whatsapp': ['WhatsApp integration not found', 'לא נמצאה אינטגרציה עם WhatsApp'],
  'notConnected.instagram': ['Instagram integration not found', 'לא נמצאה אינטגרציה עם אינסטגרם'],
  'disconnected.telegram': ['Telegram integration disconnected', 'האינטגרציה עם טלגרם נותקה'],
  'disconnected.whatsapp': ['WhatsApp integration disconnected', 'האינטגרציה עם WhatsApp נותקה'],
  'disconnected.instagram': ['Instagram integration disconnected', 'האינטגרציה עם אינסטגרם נותקה'],
  appSecretNeeded: [
    "An app secret is needed to verify Meta's signatures: enter your Meta app's App Secret (or ask the operator to set META_APP_SECRET).",
    'נדרש סוד אפליקציה כדי לאמת את החתימות של Meta: הזינו את ה-App Secret של אפליקציית Meta שלכם (או בקשו ממפעיל השרת להגדיר META_APP_SECRET).',
  ],
  takeOverFirst: ['Take over this conversation before replying in it.', 'השתלטו על השיחה לפני שאתם עונים בה.'],
  takenOver: [
    'The owner has taken over this conversation; the assistant does not answer it until it is handed back.',
    'בעל העוזר השתלט על השיחה; העוזר לא יענה בה עד שתוחזר אליו.',
  ],
  notACustomerThread: [
    "Only a customer's conversation (widget, share link or a channel) can be taken over.",
    'אפשר להשתלט רק על שיחה של לקוח (וידג׳ט, קישור שיתוף או ערוץ).',
  ],
  'paused.telegram': [
    'Paused: your plan no longer includes Telegram, so the assistant does not answer there. Upgrade on the pricing page to resume.',
    'מושהה: התוכנית שלכם כבר לא כוללת את טלגרם, ולכן העוזר לא עונה שם. שדרגו בעמוד המחירים כדי לחדש.',
  ],
  'paused.whatsapp': [
    'Paused: your plan no longer includes WhatsApp, so the assistant does not answer there. Upgrade on the pricing page to resume.',
    'מושהה: התוכנית שלכם כבר לא כוללת את WhatsApp, ולכן העוזר לא עונה שם. שדרגו בעמוד המחירים כדי לחדש.',
  ],
  'paused.instagram': [
    'Paused: your plan no longer includes Instagram, so the assistant does not answer there. Upgrade on the pricing page to resume.',
    'מושהה: התוכנית שלכם כבר לא כוללת את אינסטגרם, ולכן העוזר לא עונה שם. שדרגו בעמוד המחירים כדי לחדש.',
  ],
});

/** The channel setup checks outside the catalogue (no code yet). */
const CHANNEL_FIELD_TEXTS: Record<string, string> = {
  'Phone Number ID must be digits': 'מזהה מספר הטלפון חייב להכיל ספרות בלבד',
  'Instagram Account ID must be digits': 'מזהה חשבון האינסטגרם חייב להכיל ספרות בלבד',
  'Message content cannot be empty': 'ההודעה לא יכולה להיות ריקה',
  'Message too long (max 4000 characters)': 'ההודעה ארוכה מדי (עד 4000 תווים)',
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

const AUTOMATION_TEXTS = catalogueTexts('automation', {
  testFailed: ['Test failed. Please check your API configuration.', 'הבדיקה נכשלה. נא לבדוק את הגדרות ה-API.'],
  testSuccessful: ['Test successful!', 'הבדיקה הצליחה!'],
  noWorkflows: ['No workflows yet', 'עדיין אין תהליכי עבודה'],
  titleRequired: ['Title is required', 'חובה להזין כותרת'],
  triggerRequired: ['Trigger condition is required', 'חובה להזין תנאי הפעלה'],
  instructionsRequired: ['Instructions are required', 'חובה להזין הוראות'],
  categoryInvalid: [
    'Choose a category: tone, phrase, standardize, format or custom',
    'בחרו קטגוריה: טון, ביטויים, אחידות, עיצוב או מותאם אישית',
  ],
  workflowNotFound: ['Workflow not found.', 'תהליך העבודה לא נמצא.'],
  guidelineNotFound: ['Guideline not found.', 'ההנחיה לא נמצאה.'],
  actionNotFound: ['Action not found.', 'הפעולה לא נמצאה.'],
  endpointRequired: ['Endpoint URL is required for an API action', 'לפעולת API חובה להזין כתובת'],
  endpointNotHttp: [
    'The endpoint must be an http:// or https:// address',
    'הכתובת חייבת להתחיל ב-http:// או ב-https://',
  ],
  endpointPathRequired: [
    'With a named endpoint, the endpoint is a path starting with /',
    'עם נקודת קצה בעלת שם, הכתובת היא נתיב שמתחיל ב-/',
  ],
  bodyNotJson: [
    'Body template must be JSON (placeholders in double braces reference inputs)',
    'תבנית הגוף חייבת להיות JSON (מצייני מקום בסוגריים מסולסלים כפולים מפנים לקלטים)',
  ],
  bodyWithGet: ['A GET action has no body template', 'לפעולת GET אין תבנית גוף'],
  inputNameInvalid: [
    'Input names use letters, digits and _ (starting with a letter)',
    'שמות קלטים מורכבים מאותיות, ספרות ו-_ (ומתחילים באות)',
  ],
  kbSourcesRequired: ['Add at least one source to a knowledge base action', 'הוסיפו לפחות מקור אחד לפעולת מאגר ידע'],
  headerInvalid: ['Header names use letters, digits and - only', 'שמות כותרות מורכבים מאותיות, ספרות ו-- בלבד'],
  endpointNameNeedsAssistant: [
    'This action calls a named endpoint: choose the assistant whose external API configuration it uses',
    'הפעולה קוראת לנקודת קצה בעלת שם: בחרו את העוזר שהגדרות ה-API החיצוני שלו משמשות אותה',
  ],
  endpointNameInvalid: [
    'Endpoint names use letters, digits, _ and - (at most 40)',
    'שמות נקודות קצה מורכבים מאותיות, ספרות, _ ו-- (עד 40)',
  ],
  externalConfigNotFound: ['This assistant has no external API configuration.', 'לעוזר הזה אין הגדרות API חיצוני.'],
});

/** The catalogue's texts with values in them, recognised by their English form. */
const LIMIT_WHAT: Record<string, string> = {
  'monthly messages': 'הודעות בחודש',
  assistants: 'עוזרים',
  'files for this assistant': 'קבצים לעוזר הזה',
  'knowledge storage (bytes)': 'בתים של אחסון ידע',
};

/** Curated answers (issue 26, contracts http/curated-answers.dto.ts). */
const CURATED_TEXTS = catalogueTexts('curated', {
  required: ['Please write both the question and the answer.', 'נא לכתוב גם את השאלה וגם את התשובה.'],
  tooLong: [
    'The question is too long (max 1000 characters) or the answer is (max 20000).',
    'השאלה ארוכה מדי (עד 1000 תווים) או שהתשובה ארוכה מדי (עד 20000).',
  ],
  notFound: ['This question and answer no longer exists.', 'השאלה והתשובה האלה כבר לא קיימות.'],
  badCsv: ['The file is not a CSV with the columns question,answer.', 'הקובץ אינו CSV עם העמודות question,answer.'],
});

const MORE_TEMPLATES: Parameters<typeof registerServerTexts>[0]['templates'] = [
  // limits-service wouldExceedMessage: a limit check whose amount would go over a limit not yet reached.
  {
    code: 'limits.wouldExceed',
    pattern:
      /^This would go over your plan's limit of (\d+) (monthly messages|assistants|files for this assistant|knowledge storage \(bytes\)): (\d+) left\.$/,
    he: (limit, what, left) => `זה יחרוג ממגבלת התוכנית שלכם: ${limit} ${LIMIT_WHAT[what!]}. נותרו ${left}.`,
  },
  {
    code: 'automation.failed',
    pattern: /^Failed to (create|update|delete) (workflow|guideline|action)\. Please try again\.$/,
    he: (verb, what) => `${VERBS[verb!]} ${THINGS[what!]} נכשלה. נא לנסות שוב.`,
  },
  {
    code: 'automation.confirmDelete',
    pattern: /^Are you sure you want to delete this (workflow|guideline|action)\?$/,
    he: (what) => `למחוק את ${THINGS[what!]}?`,
  },
  {
    code: 'automation.tooLong',
    pattern: /^(.+) is too long \(max ([\d,]+) characters\)$/,
    he: (name, max) => `${field(name!)} ארוך מדי (עד ${max} תווים)`,
  },
  {
    code: 'automation.tooMany',
    pattern: /^Too many (.+) \(max (\d+)\)$/,
    he: (what, max) => `יותר מדי ${field(what!)} (עד ${max})`,
  },
  {
    code: 'automation.unknownLinkedAction',
    pattern: /^Linked action (.+) does not exist\.$/,
    he: (id) => `הפעולה המקושרת ${id} לא קיימת.`,
  },
  {
    code: 'automation.workflowLimit',
    pattern: /^You can have at most (\d+) workflows\.$/,
    he: (max) => `אפשר ליצור עד ${max} תהליכי עבודה.`,
  },
  {
    code: 'automation.guidelineLimit',
    pattern: /^You can have at most (\d+) guidelines\.$/,
    he: (max) => `אפשר ליצור עד ${max} הנחיות.`,
  },
  {
    code: 'automation.actionLimit',
    pattern: /^You can have at most (\d+) actions\.$/,
    he: (max) => `אפשר ליצור עד ${max} פעולות.`,
  },
  {
    code: 'automation.malformedTemplate',
    pattern: /^(.+): malformed template — placeholders are written \{\{input_name\}\}$/,
    he: (where) => `${field(where!)}: תבנית שגויה — מצייני מקום נכתבים כך: {{input_name}}`,
  },
  {
    code: 'automation.unknownPlaceholder',
    pattern: /^(.+): unknown placeholder \{\{(.+)\}\} — add an input named "(.+)" or remove it$/,
    he: (where, name) => `${field(where!)}: מציין מקום לא מוכר {{${name}}} — הוסיפו קלט בשם "${name}" או הסירו אותו`,
  },
  {
    code: 'automation.duplicateInput',
    pattern: /^Input "(.+)" is listed twice$/,
    he: (name) => `הקלט "${name}" מופיע פעמיים`,
  },
  {
    code: 'automation.missingTestInput',
    pattern: /^Missing required input "(.+)"$/,
    he: (name) => `חסר קלט חובה "${name}"`,
  },
  {
    code: 'automation.unknownEndpointName',
    pattern: /^No external API endpoint named "(.+)" is configured for this assistant$/,
    he: (name) => `לא הוגדרה לעוזר הזה נקודת קצה בשם "${name}"`,
  },
  {
    code: 'automation.duplicateEndpointName',
    pattern: /^Endpoint "(.+)" is listed twice$/,
    he: (name) => `נקודת הקצה "${name}" מופיעה פעמיים`,
  },
  {
    code: 'automation.actionTimedOut',
    pattern: /^The API did not answer within (\d+) ms$/,
    he: (ms) => `ה-API לא ענה תוך ${ms} מילישניות`,
  },
  {
    code: 'automation.actionTooLarge',
    pattern: /^The API's response is larger than (\d+) KB$/,
    he: (kb) => `התשובה של ה-API גדולה מ-${kb} KB`,
  },
  {
    code: 'automation.actionHttpError',
    pattern: /^The API answered with HTTP (\d+)$/,
    he: (status) => `ה-API ענה ב-HTTP ${status}`,
  },
  {
    code: 'automation.actionRefused',
    pattern: /^The address was refused: (.+)$/s,
    he: (reason) => `הכתובת נדחתה: ${reason}`,
  },
  {
    code: 'automation.actionUnreachable',
    pattern: /^The API could not be reached: (.+)$/s,
    he: (reason) => `לא הצלחנו להגיע ל-API: ${reason}`,
  },
  {
    code: 'automation.actionNotJson',
    pattern: /^The API's response is not JSON \((.+)\)$/,
    he: (type) => `התשובה של ה-API אינה JSON (${type === 'no content type' ? 'ללא סוג תוכן' : type})`,
  },
  {
    code: 'automation.actionInputInvalid',
    pattern: /^Input "(.+)" must be a (number|boolean|string)$/,
    he: (name, type) =>
      `הקלט "${name}" חייב להיות ${type === 'number' ? 'מספר' : type === 'boolean' ? 'ערך אמת/שקר' : 'טקסט'}`,
  },
  {
    code: 'curated.limitReached',
    pattern:
      /^This assistant has reached its plan's limit of (\d+) questions and answers\. Delete some or upgrade the plan to add more\.$/,
    he: (limit) =>
      `העוזר הזה הגיע למגבלת התוכנית של ${limit} שאלות ותשובות. מחקו חלק מהן או שדרגו את התוכנית כדי להוסיף עוד.`,
  },
  // A channel's setup refused, with the reason after the spec's text (contracts channelSetupMessages).
  ...(
    [
      ['telegram', 'Telegram', 'טלגרם'],
      ['whatsapp', 'WhatsApp', 'WhatsApp'],
      ['instagram', 'Instagram', 'אינסטגרם'],
    ] as const
  ).map(([kind, name, he]) => ({
    code: `channelSetup.refused.${kind}`,
    pattern: new RegExp(`^Failed to setup ${name} integration: (.+)$`, 's'),
    // The reason arrives said in Hebrew already, when it is a known text (the app secret's).
    he: (reason: string) => `הגדרת האינטגרציה עם ${he} נכשלה: ${reason}`,
  })),
  {
    code: 'site.timeout',
    pattern: /^The site (\S+) did not answer within (\d+) seconds\.$/,
    he: (host, seconds) => `האתר ${host} לא ענה תוך ${seconds} שניות.`,
  },
  // Last: its channel name is any text, so the API's own "The API could not be reached" is tried first.
  {
    code: 'integration.channelUnreachable',
    pattern: /^(.+) could not be reached: (.+)$/s,
    he: (channel, reason) => `לא הצלחנו להגיע אל ${channel}: ${reason}`,
  },
];

registerServerTexts({
  exact: {
    ...DRIVE_TEXTS,
    ...CRAWLER_SCHEDULE_TEXTS,
    ...DRIVE_MORE_TEXTS,
    ...PLAN_TEXTS,
    ...INTEGRATION_TEXTS,
    ...CHANNEL_FIELD_TEXTS,
    ...AUTOMATION_TEXTS,
    ...CURATED_TEXTS,
  },
  templates: MORE_TEMPLATES,
});
