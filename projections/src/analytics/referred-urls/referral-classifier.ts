import type { PageCategory, ReferralType } from '@kesher/contracts';

/**
 * The words of an address's path that say what kind of page it is, checked in this order (a
 * `/pricing/support` page is about pricing). English and Hebrew (transliterated slugs are English words).
 */
const RULES: readonly { type: ReferralType; words: readonly string[] }[] = [
  {
    type: 'pricing',
    words: [
      'pricing',
      'price',
      'prices',
      'plans',
      'plan',
      'cost',
      'costs',
      'rates',
      'tariff',
      'tariffs',
      'fees',
      'מחיר',
      'מחירים',
      'מחירון',
      'תמחור',
      'מסלולים',
    ],
  },
  {
    type: 'sales',
    words: [
      'buy',
      'shop',
      'store',
      'cart',
      'checkout',
      'order',
      'orders',
      'product',
      'products',
      'booking',
      'book',
      'reserve',
      'reservation',
      'purchase',
      'subscribe',
      'signup',
      'register',
      'demo',
      'trial',
      'quote',
      'deal',
      'deals',
      'offer',
      'offers',
      'sale',
      'sales',
      'catalog',
      'catalogue',
      'קנייה',
      'רכישה',
      'הזמנה',
      'הזמנות',
      'חנות',
      'מוצרים',
      'מוצר',
      'מבצעים',
      'מבצע',
      'הרשמה',
      'קטלוג',
    ],
  },
  {
    type: 'support',
    words: [
      'support',
      'help',
      'faq',
      'faqs',
      'contact',
      'ticket',
      'tickets',
      'service',
      'troubleshooting',
      'returns',
      'shipping',
      'warranty',
      'תמיכה',
      'עזרה',
      'שאלות',
      'צור',
      'קשר',
      'שירות',
      'החזרות',
      'משלוחים',
    ],
  },
  {
    type: 'documentation',
    words: [
      'docs',
      'doc',
      'documentation',
      'guide',
      'guides',
      'manual',
      'manuals',
      'api',
      'reference',
      'tutorial',
      'tutorials',
      'kb',
      'knowledge',
      'learn',
      'handbook',
      'מדריך',
      'מדריכים',
      'תיעוד',
    ],
  },
  {
    type: 'company',
    words: [
      'about',
      'company',
      'team',
      'careers',
      'jobs',
      'press',
      'story',
      'mission',
      'investors',
      'אודות',
      'החברה',
      'צוות',
      'קריירה',
      'משרות',
    ],
  },
];

const WORD_TYPES = new Map<string, ReferralType>();
for (const rule of [...RULES].reverse()) for (const word of rule.words) WORD_TYPES.set(word, rule.type);
const ORDER = new Map(RULES.map((rule, index) => [rule.type, index]));

/**
 * What kind of page a referred address is, from the words of its path (and a sub-domain such as
 * `shop.` or `help.`): anything else is `content` (blog posts, articles, the home page).
 */
export function classifyReferral(address: string): ReferralType {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'content';
  }
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape: the raw path still has its words.
  }
  const words = [...url.hostname.split('.').slice(0, -2), ...path.toLowerCase().split(/[^\p{L}\p{N}]+/u)].filter(
    Boolean,
  );
  let best: ReferralType | undefined;
  for (const word of words) {
    const type = WORD_TYPES.get(word);
    if (type && (best === undefined || ORDER.get(type)! < ORDER.get(best)!)) best = type;
  }
  return best ?? 'content';
}

/** The crawler's page categories (where a crawl saw the page) in the referral types. */
export const referralTypeOfCategory: Readonly<Record<PageCategory, ReferralType>> = {
  pricing: 'pricing',
  product: 'sales',
  checkout: 'sales',
  booking: 'sales',
  support: 'support',
  documentation: 'documentation',
  company: 'company',
  content: 'content',
};
