import {
  billingMessages,
  crawlMessages,
  knowledgeFileMessages,
  passwordMessages,
  signInMessages,
  siteMessages,
  threadMessages,
} from '@kesher/contracts/http/errors-catalogue';
import { chatInputProblem, chatMessages } from '@kesher/contracts/rules/chat';
import { limits } from '@kesher/contracts/rules/limits';
import { messages } from '@kesher/contracts/rules/messages';
import { type Language, storedLanguage } from './language';

/**
 * The server speaks English: its refusals carry the spec's texts from the contracts' error catalogue
 * (`{ detail }`). This is the one place that turns each text the client knows into Hebrew, so a Hebrew
 * page never shows "Assistant not found…" in English. A text it does not know is shown as the server
 * said it. `serverTexts.unit.test.ts` checks that every entry of the catalogue has its Hebrew here.
 *
 * Plain data with no i18n runtime: the visitor pages (public chat, embed) use it too.
 */

/** An English text and its Hebrew. */
type Pair = readonly [english: string, hebrew: string];
/** The Hebrew of a parametrised text, given the values it shows (in its parameters' order). */
type Wording = (...values: string[]) => string;

/**
 * Hebrew by code: the server sends each catalogue text's code beside its words (contracts
 * http/error-codes.ts), so a reworded English sentence keeps its Hebrew. The English below is the fallback
 * for an answer without a code (an older server, a text the handler could not name).
 */
const BY_CODE = new Map<string, string | Wording>();

/** The texts of one catalogue by key (`file`, `noFile` is the code `file.noFile`): known by code and by words. */
export function catalogueTexts(catalogue: string, pairs: Record<string, Pair>): Record<string, string> {
  const byEnglish: Record<string, string> = {};
  for (const [key, [english, hebrew]] of Object.entries(pairs)) {
    BY_CODE.set(`${catalogue}.${key}`, hebrew);
    byEnglish[english] = hebrew;
  }
  return byEnglish;
}

/** The same for a catalogue the visitor build loads anyway (messages, chatMessages): its English read from it. */
function loadedCatalogueTexts<K extends string>(
  catalogue: string,
  texts: Readonly<Record<K, unknown>>,
  hebrew: Partial<Record<K, string>>,
): Record<string, string> {
  const pairs: Record<string, Pair> = {};
  for (const [key, he] of Object.entries(hebrew) as [K, string][]) pairs[key] = [texts[key] as string, he];
  return catalogueTexts(catalogue, pairs);
}

/** Texts of the catalogue modules that import zod (files.dto, auth.dto), which the visitor build must not load. */
const FILE_TEXTS = catalogueTexts('file', {
  noFile: ['Please choose a file to upload.', 'אנא בחרו קובץ להעלאה.'],
  badType: [
    'Please select a valid file type (PDF, DOCX, TXT, CSV, MD, JSON, XLSX or PPTX)',
    'אנא בחרו סוג קובץ תקין (PDF, DOCX, TXT, CSV, MD, JSON, XLSX או PPTX)',
  ],
  tooLarge: ['File is too large (max 20 MB).', 'הקובץ גדול מדי (עד 20MB).'],
  storageFull: [
    "Your plan's storage for knowledge files (100 MB) is full. Delete some files or upgrade the plan to upload more.",
    'נפח האחסון לקובצי ידע בתוכנית שלכם (100 MB) מלא. מחקו קבצים או שדרגו את התוכנית כדי להעלות עוד.',
  ],
  notFound: ['File not found.', 'הקובץ לא נמצא.'],
});

/** The password rules (contracts auth.dto passwordRules): validation items, each with its code. */
const PASSWORD_TEXTS = loadedCatalogueTexts('password', passwordMessages, {
  tooShort: 'הסיסמה חייבת להכיל לפחות 10 תווים',
  noUppercase: 'הסיסמה חייבת להכיל לפחות אות גדולה אחת',
  noLowercase: 'הסיסמה חייבת להכיל לפחות אות קטנה אחת',
  noNumber: 'הסיסמה חייבת להכיל לפחות ספרה אחת',
  noSpecial: 'הסיסמה חייבת להכיל לפחות תו מיוחד אחד',
  tooLong: 'הסיסמה ארוכה מדי',
  required: 'חובה להזין סיסמה',
});

/** E-mail ownership (contracts http/auth.dto.ts accountMessages). */
const ACCOUNT_TEXTS = catalogueTexts('account', {
  resetRequested: [
    "If an account exists for this email address, we've sent it a link to reset the password. Please check your inbox.",
    'אם קיים חשבון עם כתובת האימייל הזו, שלחנו אליה קישור לאיפוס הסיסמה. אנא בדקו את תיבת הדואר.',
  ],
  resetLinkInvalid: [
    'This password reset link is invalid, has expired or was already used. Please ask for a new one.',
    'קישור איפוס הסיסמה אינו תקין, פג תוקפו או שכבר נעשה בו שימוש. אנא בקשו קישור חדש.',
  ],
  passwordReset: [
    'Your password has been changed and your account was signed out everywhere. Please sign in with your new password.',
    'הסיסמה שלכם שונתה והחשבון נותק מכל מקום. אנא התחברו עם הסיסמה החדשה.',
  ],
  verifyLinkInvalid: [
    'This verification link is invalid, has expired or was already used. Please ask for a new one.',
    'קישור האימות אינו תקין, פג תוקפו או שכבר נעשה בו שימוש. אנא בקשו קישור חדש.',
  ],
  emailVerified: ['Your email address is verified. Thank you!', 'כתובת האימייל שלכם אומתה. תודה!'],
  verificationSent: [
    "We've sent you a new verification link. Please check your inbox.",
    'שלחנו אליכם קישור אימות חדש. אנא בדקו את תיבת הדואר.',
  ],
  alreadyVerified: ['Your email address is already verified.', 'כתובת האימייל שלכם כבר מאומתת.'],
  tooManyMails: [
    'Too many emails were requested. Please wait a while before asking again.',
    'התבקשו יותר מדי הודעות אימייל. אנא המתינו זמן מה לפני שתבקשו שוב.',
  ],
  linkMalformed: [
    'This link is incomplete. Please open it again from the email, or ask for a new one.',
    'הקישור חסר. אנא פתחו אותו שוב מתוך האימייל, או בקשו קישור חדש.',
  ],
});

/** The crawler's catalogue (contracts rules/crawler, which the visitor build does not load). */
const CRAWLER_TEXTS = catalogueTexts('crawler', {
  websiteRequired: ['Please enter a website URL', 'אנא הזינו כתובת אתר'],
  invalidUrl: [
    'Please enter a valid URL (including http:// or https://)',
    'אנא הזינו כתובת תקינה (כולל http:// או https://)',
  ],
  urlRequired: ['Please enter a URL', 'אנא הזינו כתובת'],
  noPages: [
    'No pages found to crawl. Please check the URL and try again.',
    'לא נמצאו דפים לסריקה. אנא בדקו את הכתובת ונסו שוב.',
  ],
  selectPages: ['Please select at least one file to upload', 'אנא בחרו לפחות קובץ אחד להעלאה'],
  configureFailed: ['Failed to configure crawler', 'הגדרת הסורק נכשלה'],
  configNotFound: ['Crawler configuration not found.', 'הגדרות הסורק לא נמצאו.'],
  crawlNotFound: ['Crawl not found.', 'הסריקה לא נמצאה.'],
  previewNotFound: [
    'This preview is no longer available. Please scan the website again.',
    'התצוגה המקדימה הזו כבר אינה זמינה. אנא סרקו את האתר שוב.',
  ],
  previewNotReady: [
    'The website scan is still running. Please wait for it to finish.',
    'סריקת האתר עדיין פועלת. אנא המתינו לסיומה.',
  ],
  urlNotFound: ['URL not found.', 'הכתובת לא נמצאה.'],
  noContent: ['The content of this page is not available.', 'התוכן של הדף הזה אינו זמין.'],
  crawlStarted: ['Crawl started', 'הסריקה התחילה'],
  scanFirst: [
    'Scan the website first, then add a missing page to its results.',
    'סרקו קודם את האתר, ואז הוסיפו דף חסר לתוצאות.',
  ],
  pageAdded: ['Page added.', 'הדף נוסף.'],
  robotsRefused: [
    "The site's robots.txt does not allow crawling this page.",
    'קובץ robots.txt של האתר אינו מתיר לסרוק את הדף הזה.',
  ],
  previewTimedOut: [
    'The website scan is taking longer than expected. Please try again later.',
    'סריקת האתר נמשכת יותר מהצפוי. אנא נסו שוב מאוחר יותר.',
  ],
});

/** The crawl's progress texts (the crawler worker's, outside the catalogue). */
const CRAWL_PROGRESS_TEXTS: Record<string, string> = {
  'Adding the pages to the assistant...': 'מוסיף את הדפים לעוזר...',
  'The crawl could not be finished: it failed several times. Please try again later.':
    'לא ניתן היה לסיים את הסריקה: היא נכשלה כמה פעמים. אנא נסו שוב מאוחר יותר.',
};

/** The analytics catalogue (contracts rules/analytics, which imports zod: the visitor build must not load it). */
const ANALYTICS_TEXTS = catalogueTexts('analytics', {
  loginRequired: ['Please log in to view analytics', 'אנא התחברו כדי לצפות באנליטיקה'],
  limitsFailed: ['Failed to load limits data', 'טעינת נתוני המגבלות נכשלה'],
  keywordsFailed: ['Failed to load keyword analytics', 'טעינת ניתוח מילות המפתח נכשלה'],
  salesFailed: ['Error loading sales analytics', 'שגיאה בטעינת ניתוח המכירות'],
  invalidResponse: ['Invalid response format', 'מבנה התשובה אינו תקין'],
  noAnalytics: ['No analytics data available', 'אין נתוני אנליטיקה זמינים'],
  noLimits: ['No limits data available', 'אין נתוני מגבלות זמינים'],
});

/** Subscriptions and the test payment page (contracts errors.catalogue.ts billingMessages), with the card form's field checks. */
const BILLING_TEXTS = loadedCatalogueTexts('billing', billingMessages, {
  declined: 'הכרטיס נדחה. אנא נסו כרטיס אחר.',
  unknownCard: 'זהו עמוד בדיקה: השתמשו בכרטיס הבדיקה 4580458045804580 (או 4000000000000002 כדי לראות דחייה).',
  expired: 'תוקף הכרטיס פג. בדקו את תאריך התפוגה.',
  paid: 'התשלום הצליח! המנוי שלכם פעיל.',
  alreadyPaid: 'ההזמנה הזו כבר שולמה. המנוי שלכם פעיל.',
  cardNumber: 'מספר הכרטיס חייב להכיל 13 עד 16 ספרות',
  cardHolder: 'חובה להזין את שם בעל הכרטיס',
  expiry: 'תוקף הכרטיס חייב להיות בתבנית MM/YY',
  cvv: 'קוד ה-CVV חייב להכיל 3 או 4 ספרות',
  alreadySubscribed: 'כבר יש לכם מנוי. אפשר לשנות או לבטל אותו בעמוד החיוב.',
  receiptNotFound: 'הקבלה לא נמצאה.',
  returnOffSite: 'כתובת החזרה חייבת להיות באתר הזה.',
  testPaymentsOff: 'תשלומי הבדיקה כבויים: השרת הזה גובה תשלומים דרך Stripe.',
  checkoutOfAnother: 'ההזמנה הזו שייכת לחשבון אחר.',
});

/** Payment descriptions (services' paymentDescription): the test page's order and the payment history. Said, not refused: no code. */
const PAYMENT_TEXTS: Record<string, string> = {
  'Pro plan, monthly': 'תוכנית פרו, חודשי',
  'Pro plan, yearly': 'תוכנית פרו, שנתי',
  'Enterprise plan, monthly': 'תוכנית ארגונית, חודשי',
  'Enterprise plan, yearly': 'תוכנית ארגונית, שנתי',
};

/** The error handler's own texts (contracts http/errors.dto.ts requestMessages). */
const REQUEST_TEXTS = catalogueTexts('request', {
  concurrentChange: [
    'This item was changed at the same moment by another request. Please try again.',
    'הפריט שונה באותו רגע על ידי בקשה אחרת. אנא נסו שוב.',
  ],
  invalidData: ['The request contains invalid data.', 'הבקשה מכילה נתונים לא תקינים.'],
  notJson: ['The request body is not valid JSON.', 'גוף הבקשה אינו JSON תקין.'],
  emptyBody: ['The request body is empty.', 'גוף הבקשה ריק.'],
  unsupportedContentType: ['Unsupported content type.', 'סוג התוכן אינו נתמך.'],
  invalidAddress: ['The address of this request is not valid.', 'הכתובת של הבקשה הזו אינה תקינה.'],
});

/** Signing in (contracts errors.catalogue.ts signInMessages). */
const SIGN_IN_TEXTS = loadedCatalogueTexts('signIn', signInMessages, {
  invalidCredentials: 'כתובת האימייל או הסיסמה שגויים. אנא בדקו את הפרטים.',
  tooManyAttempts: 'יותר מדי ניסיונות התחברות שנכשלו. אנא נסו שוב מאוחר יותר.',
  googleNotConfigured: 'ההתחברות עם Google לא הוגדרה בשרת הזה. אנא התחברו עם אימייל וסיסמה.',
  googleFailed: 'ההתחברות עם Google נכשלה: לא הצלחנו לאמת את האסימון. אנא נסו שוב.',
});

/** A conversation's and a knowledge file's refusals, and the crawl decider's (contracts errors.catalogue.ts). */
const DECIDER_TEXTS = {
  ...loadedCatalogueTexts('thread', threadMessages, {
    exists: 'השיחה הזו כבר קיימת',
    messageNotFound: 'ההודעה לא נמצאה.',
    invalidMessageId: 'מזהה הודעה לא תקין',
    notFound: 'השיחה לא נמצאה',
  }),
  ...loadedCatalogueTexts('knowledgeFile', knowledgeFileMessages, {
    notFound: 'הקובץ לא נמצא',
    exists: 'הקובץ הזה כבר הועלה',
    empty: 'הקובץ ריק.',
    invalidId: 'מזהה קובץ לא תקין',
  }),
  ...loadedCatalogueTexts('crawl', crawlMessages, {
    alreadyRequested: 'הסריקה הזו כבר התבקשה.',
    previewOnly: 'אפשר להוסיף דפים רק לתצוגה מקדימה.',
    contentGone: 'התוכן של הדף הזה כבר אינו זמין. אנא סרקו את האתר שוב.',
  }),
  ...loadedCatalogueTexts('site', siteMessages, {
    credentialsInUrl: 'כתובות שיש בהן שם משתמש או סיסמה אינן נטענות.',
    redirectLoop: 'הכתובת מפנה בלולאה.',
    badRedirect: 'האתר הפנה לכתובת לא תקינה.',
    aborted: 'הטעינה בוטלה.',
  }),
};

/** Success answers' texts (`{ detail }` with a 200): said, not refused, so they carry no code. */
const DONE_TEXTS: Record<string, string> = {
  'Share link revoked': 'קישור השיתוף בוטל',
  'Assistant deleted': 'העוזר נמחק',
};

const EXACT: Record<string, string> = {
  ...loadedCatalogueTexts('common', messages, {
    assistantNameRequired: 'חובה להזין שם לעוזר',
    requiredFields: 'אנא מלאו את כל שדות החובה',
    descriptionTooLong: 'התיאור ארוך מדי (עד 1000 מילים)',
    instructionsTooLong: 'ההנחיות ארוכות מדי (עד 1000 מילים)',
    salesPromptTooLong: 'הנחיית המכירות ארוכה מדי (עד 1000 מילים)',
    descriptionTooManyChars: 'התיאור ארוך מדי (עד 20,000 תווים)',
    instructionsTooManyChars: 'ההנחיות ארוכות מדי (עד 20,000 תווים)',
    salesPromptTooManyChars: 'הנחיית המכירות ארוכה מדי (עד 20,000 תווים)',
    invalidWebsiteUrl: 'אנא הזינו כתובת אתר תקינה',
    salesModeNeedsCrawler: 'אפשר להפעיל מצב מכירות רק כשסורק האתר פועל',
    assistantNotFound: 'העוזר לא נמצא. בדקו שהעוזר עדיין קיים.',
    assistantExists: 'העוזר הזה כבר קיים',
    emailExists: 'כבר קיים חשבון עם כתובת האימייל הזו. נסו להתחבר במקום זאת.',
    invalidEmail: 'אנא הזינו כתובת אימייל תקינה.',
    notFound: 'המשאב לא נמצא.',
    forbidden: 'הגישה נדחתה. אין לכם הרשאה לבצע פעולה זו.',
    authRequired: 'נדרשת התחברות. אנא התחברו מחדש.',
    tooManyRequests: 'יותר מדי בקשות. אנא נסו שוב מאוחר יותר.',
    serverError: 'אירעה שגיאת שרת. אנא נסו שוב מאוחר יותר.',
  }),
  ...loadedCatalogueTexts('chat', chatMessages, {
    invalidAssistantId: 'מזהה עוזר לא תקין',
    invalidAssistantIdFormat: 'מבנה מזהה העוזר אינו תקין',
    invalidThreadId: 'מזהה שיחה לא תקין',
    invalidRunId: 'מזהה הרצה לא תקין',
    emptyMessage: 'ההודעה לא יכולה להיות ריקה',
    assistantUnavailable: 'העוזר אינו זמין כרגע. אנא נסו שוב מאוחר יותר.',
    onlyUserMessages: 'עם הרצה אפשר לשלוח רק הודעה של המשתמש.',
    oneMessagePerRun: 'עם הרצה אפשר לשלוח הודעה אחת בלבד.',
    messageTooLong: 'ההודעה ארוכה מדי (עד 10000 תווים)',
    threadNotFound: 'השיחה לא נמצאה.',
    threadInvalid: 'מזהה השיחה אינו תקין.',
    runNotFound: 'ההרצה לא נמצאה.',
    runActive: 'העוזר עדיין עונה על ההודעה הקודמת. אנא המתינו לתשובה.',
    noPermission: 'אין לכם הרשאה ליצור שיחות עם העוזר הזה.',
    invalidShareLink: 'קישור השיתוף אינו תקין או שפג תוקפו.',
    sessionTokenRequired: 'נדרש אסימון שיחה לצ׳אט ציבורי.',
    feedbackCommentTooLong: 'התגובה ארוכה מדי (עד 500 תווים)',
    titleRequired: 'הכותרת לא יכולה להיות ריקה',
    visitorThreadReadOnly: 'השיחה הזו שייכת למבקר. אפשר לקרוא אותה, לשנות את שמה או למחוק אותה, אבל לא לכתוב בה.',
  }),
  ...FILE_TEXTS,
  ...PASSWORD_TEXTS,
  ...ACCOUNT_TEXTS,
  ...SIGN_IN_TEXTS,
  ...DECIDER_TEXTS,
  ...DONE_TEXTS,
  ...REQUEST_TEXTS,
  ...ANALYTICS_TEXTS,
  ...CRAWLER_TEXTS,
  ...CRAWL_PROGRESS_TEXTS,
  ...BILLING_TEXTS,
  ...PAYMENT_TEXTS,
};

/** A catalogue text with a number in it, recognised by its English form with any number in that place. */
interface Template {
  pattern: RegExp;
  he: (n: string) => string;
  /** Its code, when it is a catalogue's (the chat input rules are not). */
  code?: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Builds the pattern from the catalogue's own function, so a reworded English text is still recognised.
 * The small numbers are also kept as exact texts: English may word them differently ("1 assistant").
 */
function fromCatalogue(code: string, english: (n: number) => string, he: (n: string) => string): Template {
  for (const n of [0, 1, 2]) EXACT[english(n)] ??= he(String(n));
  const MARK = 987654321;
  const [before, after] = english(MARK).split(String(MARK)) as [string, string];
  return { pattern: new RegExp(`^${escape(before)}(\\d+)${escape(after)}$`), he, code };
}

/** The chat input rules' texts, as chatInputProblem words them, with the count in their last number. */
function fromInputRule(sample: string, count: number, he: (n: string) => string): Template {
  const english = chatInputProblem(sample)!;
  const at = english.lastIndexOf(String(count));
  return {
    pattern: new RegExp(`^${escape(english.slice(0, at))}(\\d+)${escape(english.slice(at + String(count).length))}$`),
    he,
  };
}

const TEMPLATES: Template[] = [
  // analyticsMessages.failedToLoad(detail): the detail is itself a server text, said in Hebrew too.
  {
    pattern: /^Failed to load analytics data: (.+)$/s,
    he: (detail) => `טעינת נתוני האנליטיקה נכשלה: ${serverText(detail, 'he')}`,
    code: 'analytics.failedToLoad',
  },
  fromCatalogue(
    'crawler.deleted',
    (n) => `Deleted ${n} URL(s).`,
    (n) => `נמחקו ${n} כתובות.`,
  ),
  fromCatalogue(
    'crawler.committed',
    (n) => `${n} page${n === 1 ? '' : 's'} added to the assistant's knowledge.`,
    (n) => (n === '1' ? 'דף אחד נוסף לידע של העוזר.' : `${n} דפים נוספו לידע של העוזר.`),
  ),
  fromCatalogue('common.assistantLimitReached', messages.assistantLimitReached, (n) =>
    n === '1'
      ? 'הגעתם למגבלת התוכנית שלכם: עוזר אחד. מחקו עוזר או שדרגו את התוכנית כדי ליצור עוזר נוסף.'
      : `הגעתם למגבלת התוכנית שלכם: ${n} עוזרים. מחקו עוזר או שדרגו את התוכנית כדי ליצור עוזר נוסף.`,
  ),
  fromCatalogue(
    'common.crawlPageLimitReached',
    messages.crawlPageLimitReached,
    (n) =>
      `העוזר הגיע למגבלת התוכנית: ${n === '1' ? 'דף סרוק אחד' : `${n} דפים סרוקים`}. הסירו דפים או שדרגו את התוכנית כדי להוסיף עוד.`,
  ),
  // contracts siteMessages (services outbound-error.ts): a site the crawler (or a settings test) could not fetch.
  {
    pattern: /^The site (\S+) could not be reached\.$/,
    he: (host) => `לא הצלחנו להגיע לאתר ${host}.`,
    code: 'site.unreachable',
  },
  {
    pattern: /^The site (\S+) could not be found\.$/,
    he: (host) => `לא מצאנו את האתר ${host}.`,
    code: 'site.unresolvable',
  },
  {
    pattern: /^"(.+)" is not a valid web address\.$/s,
    he: (url) => `"${url}" אינה כתובת אינטרנט תקינה.`,
    code: 'site.invalidUrl',
  },
  {
    pattern: /^Only http:\/\/ and https:\/\/ addresses can be fetched \(got (.+)\)\.$/,
    he: (scheme) => `אפשר לטעון רק כתובות http:// ו-https:// (התקבל ${scheme}).`,
    code: 'site.unsupportedScheme',
  },
  fromCatalogue('site.tooManyRedirects', siteMessages.tooManyRedirects, (n) => `הכתובת הפנתה יותר מ-${n} פעמים.`),
  // files.dto storageFullMessage(size): the plan's storage, said as the server sized it (100 MB, 5 GB).
  {
    pattern:
      /^Your plan's storage for knowledge files \((\d[\d.,]* [MG]B)\) is full\. Delete some files or upgrade the plan to upload more\.$/,
    he: (size) => `נפח האחסון לקובצי ידע בתוכנית שלכם (${size}) מלא. מחקו קבצים או שדרגו את התוכנית כדי להעלות עוד.`,
  },
  fromCatalogue(
    'common.fileLimitReached',
    messages.fileLimitReached,
    (n) =>
      `העוזר הגיע למגבלת התוכנית: ${n === '1' ? 'קובץ אחד' : `${n} קבצים`}. מחקו קבצים או שדרגו את התוכנית כדי להוסיף עוד.`,
  ),
  fromCatalogue(
    'chat.chatLimitReached',
    chatMessages.chatLimitReached,
    (n) => `השיחה הגיעה למגבלה של העוזר: ${n} הודעות. אנא התחילו שיחה חדשה.`,
  ),
  fromCatalogue(
    'chat.monthlyLimitReached',
    chatMessages.monthlyLimitReached,
    (n) =>
      `הגעתם למגבלת ההודעות החודשית של התוכנית שלכם: ${n} הודעות בכל העוזרים יחד. אנא נסו שוב בחודש הבא או שדרגו את התוכנית.`,
  ),
  fromInputRule(
    Array.from({ length: limits.chatInputWords + 1 }, () => 'a').join(' '),
    limits.chatInputWords + 1,
    (n) => `ההודעה חורגת ממגבלת המילים. מותרות עד ${limits.chatInputWords} מילים, וההודעה מכילה ${n} מילים.`,
  ),
  fromInputRule(
    'a'.repeat(limits.chatInputTokens * 4 + 1),
    limits.chatInputTokens + 1,
    (n) => `ההודעה חורגת ממגבלת הטוקנים. מותרים עד ${limits.chatInputTokens} טוקנים, וההודעה מכילה כ-${n} טוקנים.`,
  ),
];
for (const template of TEMPLATES) if (template.code) BY_CODE.set(template.code, template.he);

/**
 * The language the page is shown in. Both entries keep `<html lang>` on it (lib/language.ts), login and
 * register's forced English included, so the text of an error matches the page around it.
 */
export function pageLanguage(): Language {
  const lang = typeof document !== 'undefined' ? document.documentElement.lang : '';
  return lang === 'en' || lang === 'he' ? lang : storedLanguage();
}

/** Texts with several values in them (the owner app's automation checks): each value is said in Hebrew too when it is a known text. */
type MultiTemplate = { pattern: RegExp; he: Wording; code: string };
const MORE_TEMPLATES: MultiTemplate[] = [];

/**
 * Adds the Hebrew of texts only the owner app shows (Drive, channels, automation: server-texts-more.ts),
 * registered by the owner entry, so the visitor pages' bundle does not carry them.
 */
export function registerServerTexts(more: { exact: Record<string, string>; templates: MultiTemplate[] }) {
  Object.assign(EXACT, more.exact);
  MORE_TEMPLATES.push(...more.templates);
  for (const template of more.templates) BY_CODE.set(template.code, template.he);
}

/** What the server sent beside a text: its catalogue code, and the values a parametrised text shows. */
export interface TextCode {
  code?: string;
  args?: readonly string[];
}

/**
 * One server text in the given language (English: as the server said it). By its code when the server
 * sent one and the client knows it (a reworded sentence keeps its Hebrew), else by its English words.
 */
export function serverText(detail: string, language: Language = pageLanguage(), said?: TextCode | null): string {
  if (language === 'en') return detail;
  const byCode = said?.code ? BY_CODE.get(said.code) : undefined;
  if (typeof byCode === 'string') return byCode;
  if (byCode && said?.args) return byCode(...said.args.map((value) => serverText(value, language)));
  const exact = EXACT[detail.trim()];
  if (exact) return exact;
  for (const template of TEMPLATES) {
    const match = template.pattern.exec(detail.trim());
    if (match) return template.he(match[1]!);
  }
  for (const template of MORE_TEMPLATES) {
    const match = template.pattern.exec(detail.trim());
    if (match) return template.he(...match.slice(1).map((part) => serverText(part!, language)));
  }
  return detail;
}

/** Whether the client has its own text for what the server said (for tests and for callers that prefer their own fallback). */
export const knowsServerText = (detail: string, said?: TextCode | null) => serverText(detail, 'he', said) !== detail;
