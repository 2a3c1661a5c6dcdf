import { PageCategorySchema, type PageCategory } from '@kesher/contracts';
import type { PageSignals } from './page-signals.js';

export type { PageCategory };

/**
 * What kind of page this is, for Sales Mode: the first four categories are pages a buyer can be sent
 * to (see SALES_CATEGORIES); the others are knowledge but not a place to buy. "booking" covers booking
 * and contact pages (appointments, reservations, quotes, "contact us").
 */
export const PAGE_CATEGORIES: readonly PageCategory[] = PageCategorySchema.options;
export const SALES_CATEGORIES: ReadonlySet<PageCategory> = new Set(['pricing', 'product', 'checkout', 'booking']);

export interface SalesPageInput {
  url: string;
  title: string | null;
  headings: readonly string[];
  /** The page's main content (extracted), not its navigation: every page links to Pricing. */
  text: string;
  signals: PageSignals;
}

export interface SalesPageVerdict {
  isSalesPage: boolean;
  category: PageCategory;
  /** Why, in a few words an owner can check: "address /pricing; 3 prices; title says “Plans”". */
  reason: string;
  /** The winning category's score and the runner-up's, for tuning and for the explanation. */
  score: number;
}

interface Vocabulary {
  /** Words in the address (path segments, Hebrew slugs decoded). */
  address: string[];
  /** Phrases in the title or a heading. */
  heading: string[];
  /** Phrases in the text. */
  text: string[];
}

/** English and Hebrew words per category. Hebrew is matched inside words, since ה/ו/ל/ב/מ/ש attach to them. */
const VOCABULARY: Record<PageCategory, Vocabulary> = {
  pricing: {
    address: [
      'pricing',
      'prices',
      'price',
      'plans',
      'plan',
      'packages',
      'rates',
      'tariffs',
      'fees',
      'price-list',
      'מחירון',
      'מחירים',
      'חבילות',
      'מסלולים',
      'תעריפים',
    ],
    heading: [
      'pricing',
      'price list',
      'prices',
      'plans',
      'packages',
      'rates',
      'choose your plan',
      'compare plans',
      'מחירון',
      'מחירים',
      'חבילות',
      'מסלולים',
      'תעריפים',
      'המחירים',
    ],
    text: [
      'per month',
      'per year',
      '/mo',
      '/month',
      'billed annually',
      'billed monthly',
      'free trial',
      'most popular',
      'per person',
      'per session',
      'לחודש',
      'לשנה',
      'לאדם',
      'למפגש',
      'ניסיון חינם',
      'הכי פופולרי',
      'כולל מע"מ',
    ],
  },
  product: {
    address: [
      'product',
      'products',
      'shop',
      'store',
      'item',
      'items',
      'catalog',
      'collections',
      'p',
      'מוצר',
      'מוצרים',
      'חנות',
      'קטלוג',
    ],
    heading: ['shop', 'our products', 'store', 'collection', 'החנות', 'המוצרים', 'קולקציה'],
    text: [
      'in stock',
      'out of stock',
      'sku',
      'free shipping',
      'add to cart',
      'specifications',
      'quantity',
      'במלאי',
      'אזל מהמלאי',
      'מק"ט',
      'משלוח חינם',
      'מפרט',
      'כמות',
    ],
  },
  checkout: {
    address: [
      'checkout',
      'cart',
      'basket',
      'payment',
      'pay',
      'order',
      'purchase',
      'קופה',
      'תשלום',
      'סל',
      'עגלה',
      'רכישה',
    ],
    heading: [
      'checkout',
      'your cart',
      'shopping cart',
      'order summary',
      'payment',
      'complete your order',
      'קופה',
      'סל הקניות',
      'סיכום הזמנה',
      'תשלום',
      'השלמת הזמנה',
      'עגלת הקניות',
    ],
    text: [
      'order summary',
      'subtotal',
      'shipping address',
      'billing address',
      'payment method',
      'place order',
      'proceed to checkout',
      'card number',
      'promo code',
      'coupon',
      'סיכום הזמנה',
      'סכום ביניים',
      'כתובת למשלוח',
      'אמצעי תשלום',
      'מעבר לתשלום',
      'מספר כרטיס',
      'קוד קופון',
      'סה"כ לתשלום',
      'לביצוע ההזמנה',
    ],
  },
  booking: {
    address: [
      'book',
      'booking',
      'bookings',
      'appointment',
      'appointments',
      'schedule',
      'reserve',
      'reservation',
      'reservations',
      'contact',
      'contact-us',
      'quote',
      'get-a-quote',
      'demo',
      'צור-קשר',
      'צרו-קשר',
      'יצירת-קשר',
      'קביעת-תור',
      'הזמנת-מקום',
      'תיאום',
      'פגישה',
    ],
    heading: [
      'book',
      'booking',
      'appointment',
      'reserve',
      'reservation',
      'contact us',
      'get in touch',
      'request a quote',
      'schedule a',
      'book a demo',
      'קביעת תור',
      'קבעו תור',
      'הזמנת מקום',
      'הזמנת שולחן',
      'צור קשר',
      'צרו קשר',
      'יצירת קשר',
      'דברו איתנו',
      'הצעת מחיר',
      'תיאום פגישה',
    ],
    text: [
      'book now',
      'book an appointment',
      'book a table',
      'reserve a table',
      'available slots',
      'choose a date',
      'pick a time',
      'contact us',
      'get in touch',
      "we'll get back to you",
      'we will get back to you',
      'call us',
      'request a quote',
      'opening hours',
      'לקביעת תור',
      'הזמינו',
      'השאירו פרטים',
      'נחזור אליכם',
      'ניצור קשר',
      'התקשרו',
      'שעות פתיחה',
      'בחרו תאריך',
      'בחרו שעה',
      'תורים פנויים',
      'check availability',
      'availability',
      'check-in',
      'בדיקת זמינות',
      'זמינות',
    ],
  },
  support: {
    address: [
      'support',
      'help',
      'faq',
      'faqs',
      'help-center',
      'helpcenter',
      'kb',
      'knowledge-base',
      'troubleshooting',
      'returns',
      'warranty',
      'תמיכה',
      'עזרה',
      'שאלות-נפוצות',
      'שאלות-ותשובות',
      'החזרות',
      'אחריות',
      'customer-service',
      'service',
      'שירות-לקוחות',
    ],
    heading: [
      'faq',
      'frequently asked questions',
      'help center',
      'support',
      'troubleshooting',
      'returns',
      'warranty',
      'how can we help',
      'שאלות נפוצות',
      'שאלות ותשובות',
      'תמיכה',
      'מרכז עזרה',
      'פתרון בעיות',
      'החזרות',
      'אחריות',
      'customer service',
      'service request',
      'שירות לקוחות',
      'שירות הלקוחות',
      'קריאת שירות',
    ],
    text: [
      'frequently asked questions',
      'troubleshooting',
      'how do i',
      'how can i',
      'contact support',
      'support team',
      'return policy',
      'refund',
      'warranty',
      'שאלות נפוצות',
      'פתרון בעיות',
      'איך אני',
      'כיצד ניתן',
      'צוות התמיכה',
      'מדיניות החזרות',
      'החזר כספי',
      'אחריות',
      'customer service',
      'service request',
      'שירות לקוחות',
      'שירות הלקוחות',
      'קריאת שירות',
    ],
  },
  documentation: {
    address: [
      'docs',
      'doc',
      'documentation',
      'api',
      'reference',
      'guide',
      'guides',
      'manual',
      'developers',
      'sdk',
      'tutorial',
      'tutorials',
      'תיעוד',
      'מדריך',
      'מדריכים',
      'מפתחים',
      'integrations',
    ],
    heading: [
      'documentation',
      'api reference',
      'getting started',
      'installation',
      'quick start',
      'quickstart',
      'configuration',
      'reference',
      'user guide',
      'תיעוד',
      'מדריך',
      'התקנה',
      'הגדרה',
      'תחילת עבודה',
      'הגדרות',
      'api',
      'ממשק',
      'integration',
    ],
    text: [
      'npm install',
      'pip install',
      'parameters',
      'endpoint',
      'request body',
      'response',
      'returns',
      'example',
      'configuration',
      'api key',
      'step 1',
      'התקנה',
      'פרמטרים',
      'הגדרות',
      'דוגמה',
      'שלב 1',
      'מפתח API',
      'api',
      'ממשק',
      'webhook',
    ],
  },
  company: {
    address: [
      'about',
      'about-us',
      'team',
      'our-team',
      'careers',
      'jobs',
      'company',
      'our-story',
      'story',
      'mission',
      'press',
      'investors',
      'who-we-are',
      'אודות',
      'עלינו',
      'הצוות',
      'קריירה',
      'דרושים',
      'מי-אנחנו',
      'הסיפור-שלנו',
      'leadership',
      'management',
      'founders',
      'הנהלה',
      'ההנהלה',
      'על-המשרד',
      'על-החברה',
    ],
    heading: [
      'about us',
      'about',
      'our story',
      'our mission',
      'our team',
      'meet the team',
      'careers',
      'join us',
      'join our team',
      'who we are',
      'אודות',
      'עלינו',
      'הסיפור שלנו',
      'מי אנחנו',
      'הצוות שלנו',
      'הכירו את הצוות',
      'קריירה',
      'דרושים',
      'החזון שלנו',
      'leadership',
      'management',
      'our founders',
      'ההנהלה',
      'הנהלה',
      'המייסדים',
      'על המשרד',
      'על החברה',
    ],
    text: [
      'founded in',
      'our story',
      'our mission',
      'our values',
      'our team',
      'years of experience',
      'open positions',
      'we are hiring',
      'נוסדה',
      'הוקמה',
      'הסיפור שלנו',
      'הערכים שלנו',
      'שנות ניסיון',
      'משרות פתוחות',
      'החזון שלנו',
      'family business',
      'founded',
      'partners',
      'עסק משפחתי',
      'נוסד',
      'הוקם',
      'שותפים',
    ],
  },
  content: {
    address: [
      'blog',
      'news',
      'article',
      'articles',
      'post',
      'posts',
      'magazine',
      'stories',
      'insights',
      'בלוג',
      'מגזין',
      'כתבות',
      'מאמרים',
      'חדשות',
    ],
    heading: [],
    text: ['min read', 'posted on', 'published', 'read more', 'share this', 'דקות קריאה', 'פורסם', 'קראו עוד'],
  },
};

for (const vocabulary of Object.values(VOCABULARY)) {
  vocabulary.address = vocabulary.address.map((word) => word.toLowerCase());
  vocabulary.heading = vocabulary.heading.map((phrase) => phrase.toLowerCase());
  vocabulary.text = vocabulary.text.map((phrase) => phrase.toLowerCase());
}

const STRUCTURED: Partial<Record<string, { category: PageCategory; weight: number }>> = {
  Product: { category: 'product', weight: 3 },
  ProductGroup: { category: 'product', weight: 3 },
  OfferCatalog: { category: 'pricing', weight: 2 },
  FAQPage: { category: 'support', weight: 3 },
  ContactPage: { category: 'booking', weight: 3 },
  ReservationPackage: { category: 'booking', weight: 2 },
  AboutPage: { category: 'company', weight: 3 },
  Article: { category: 'content', weight: 2.5 },
  BlogPosting: { category: 'content', weight: 2.5 },
  NewsArticle: { category: 'content', weight: 2.5 },
  TechArticle: { category: 'documentation', weight: 2.5 },
  APIReference: { category: 'documentation', weight: 3 },
  CheckoutPage: { category: 'checkout', weight: 3 },
};

/** A price as people write it: ₪/$/€/£ before or after a number, ש"ח/NIS/USD after it. */
const PRICE = /(?:[$€£₪]\s?\d[\d,.]*|\d[\d,.]*\s?(?:[$€£₪]|ש["״]?ח|nis\b|ils\b|usd\b|eur\b|שקלים|שקל))/gi;

/** Score below which a page is just content: one weak hint is not a category. */
const THRESHOLD = 3;

export function detectSalesPage(input: SalesPageInput): SalesPageVerdict {
  const path = addressWords(input.url);
  const title = lower(input.title ?? '');
  const headings = input.headings.slice(0, 12).map(lower);
  const text = lower(input.text);
  const prices = new Set((input.text.match(PRICE) ?? []).map((price) => price.replace(/\s/g, ''))).size;
  const { signals } = input;

  const scores = new Map<PageCategory, { score: number; evidence: Array<{ weight: number; text: string }> }>(
    PAGE_CATEGORIES.map((category) => [category, { score: 0, evidence: [] }]),
  );
  const add = (category: PageCategory, weight: number, text: string) => {
    const entry = scores.get(category)!;
    entry.score += weight;
    entry.evidence.push({ weight, text });
  };
  /** The strongest evidence first. */
  const because = (category: PageCategory, count: number) =>
    [...scores.get(category)!.evidence]
      .sort((a, b) => b.weight - a.weight)
      .slice(0, count)
      .map((entry) => entry.text)
      .join('; ');

  for (const category of PAGE_CATEGORIES) {
    const vocabulary = VOCABULARY[category];
    const inAddress = vocabulary.address.find(
      (word) => path.words.has(word) || (isHebrew(word) && contains(path.text, word.replace(/-/g, ' '))),
    );
    if (inAddress) add(category, path.depth <= 2 ? 3.5 : 2.5, `address has “${inAddress}”`);
    const inTitle = vocabulary.heading.find((phrase) => contains(title, phrase));
    if (inTitle) add(category, 2.5, `title says “${inTitle}”`);
    const inHeadings = new Set(
      headings.flatMap((heading) => vocabulary.heading.filter((phrase) => contains(heading, phrase))),
    );
    if (inHeadings.size > 0)
      add(
        category,
        Math.min(3, 1.5 * inHeadings.size),
        `heading${inHeadings.size > 1 ? 's' : ''} “${[...inHeadings].slice(0, 2).join('”, “')}”`,
      );
    const inText = vocabulary.text.filter((phrase) => contains(text, phrase));
    if (inText.length > 0)
      add(category, Math.min(2, 0.5 * inText.length), `text mentions “${inText.slice(0, 3).join('”, “')}”`);
  }

  for (const type of signals.structuredTypes) {
    const structured = STRUCTURED[type];
    if (structured) add(structured.category, structured.weight, `marked up as ${type}`);
  }
  if (prices >= 3) add('pricing', 2.5, `${prices} prices`);
  else if (prices >= 1) {
    add('product', 1, `${prices} price${prices > 1 ? 's' : ''}`);
    add('pricing', 0.5, `${prices} price${prices > 1 ? 's' : ''}`);
  }
  if (signals.cartActions > 0) add('product', 3, `“add to cart” button${signals.cartActions > 1 ? 's' : ''}`);
  if (signals.bookingActions > 0) add('booking', 2, `“book” button${signals.bookingActions > 1 ? 's' : ''}`);
  // A service with its price and a button to take it is an offer, whatever the page calls itself.
  if (prices >= 1 && prices < 3 && (signals.cartActions > 0 || signals.bookingActions > 0))
    add('product', 2, 'a priced offer with a call to action');
  const fields = new Set(signals.formFields);
  if (fields.has('card')) add('checkout', 4, 'payment card fields');
  if (fields.has('address') && (fields.has('card') || fields.has('quantity')))
    add('checkout', 1.5, 'shipping address fields');
  // A date or time picker in the page's own content (the furniture is gone by now) means booking something.
  if (fields.has('date') || fields.has('time')) add('booking', 3, 'date/time fields');
  if (fields.has('message') && (fields.has('email') || fields.has('tel'))) add('booking', 2, 'contact form');
  if (signals.codeBlocks >= 2) add('documentation', 3, `${signals.codeBlocks} code blocks`);
  else if (signals.codeBlocks === 1) add('documentation', 1, 'a code block');

  const ranked = [...scores.entries()].sort((a, b) => b[1].score - a[1].score);
  const [bestCategory, best] = ranked[0]!;
  if (best.score < THRESHOLD || bestCategory === 'content') {
    const evidence = because('content', 3);
    return {
      isSalesPage: false,
      category: 'content',
      reason: evidence ? `content page: ${evidence}` : 'no sales, support or company signals: an ordinary content page',
      score: scores.get('content')!.score,
    };
  }
  return {
    isSalesPage: SALES_CATEGORIES.has(bestCategory),
    category: bestCategory,
    reason: because(bestCategory, 4),
    score: Math.round(best.score * 10) / 10,
  };
}

const lower = (text: string) => text.toLowerCase().replace(/[״]/g, '"').replace(/\s+/g, ' ');
const isHebrew = (text: string) => /[\u05D0-\u05EA]/.test(text);

const HEBREW_PREFIX = '[והבלמשכ]{0,3}';
const patterns = new Map<string, RegExp>();

/**
 * Whole words and phrases. A Hebrew one may carry the proclitics ו/ה/ב/ל/מ/ש/כ in front (ההנהלה, לקביעת),
 * and one of five letters or more may also carry a suffix (מחירונים); a short one may not, or סל would
 * be found inside אקסל.
 */
function contains(haystack: string, phrase: string): boolean {
  if (!haystack.includes(phrase)) return false;
  let pattern = patterns.get(phrase);
  if (!pattern) {
    const escaped = phrase.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    pattern = isHebrew(phrase)
      ? new RegExp(
          `(^|[^\\u05D0-\\u05EA])${HEBREW_PREFIX}${escaped}${phrase.length >= 5 ? '' : '(?=$|[^\\u05D0-\\u05EA])'}`,
          'u',
        )
      : new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'u');
    patterns.set(phrase, pattern);
  }
  return pattern.test(haystack);
}

/** The address's path as words ("/he/צור-קשר" → צור, קשר), its text, and its depth. */
function addressWords(url: string): { words: Set<string>; text: string; depth: number } {
  let path = '/';
  try {
    path = new URL(url).pathname;
  } catch {
    // an unparsable address contributes no words
  }
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // keep the escapes
  }
  const segments = decoded.toLowerCase().split('/').filter(Boolean);
  const words = new Set<string>();
  for (const segment of segments) {
    words.add(segment.replace(/\.(html?|php|aspx?)$/, ''));
    for (const word of segment.replace(/\.(html?|php|aspx?)$/, '').split(/[-_.]+/)) if (word) words.add(word);
  }
  // Language prefixes do not count towards depth.
  const depth = segments.filter((segment) => !/^(he|en|ar|ru|fr|iw|he-il|en-us)$/.test(segment)).length;
  return { words, text: ` ${segments.join(' ').replace(/[-_.]+/g, ' ')} `, depth };
}
