import type { CheerioAPI } from 'cheerio';

/**
 * What a page's markup says about it beyond its words: structured data types, forms and their fields,
 * shopping buttons, code blocks. Read before extraction, which removes scripts, forms and buttons.
 */
export interface PageSignals {
  /** schema.org types from JSON-LD and microdata (`Product`, `Offer`, `FAQPage`, `BlogPosting`, …). */
  structuredTypes: string[];
  /** The kinds of form fields on the page: `email`, `tel`, `date`, `time`, `message`, `card`, `quantity`, `address`. */
  formFields: string[];
  /** Buttons or links that put something in a cart or buy it. */
  cartActions: number;
  /** Buttons or links that book, reserve or sign up ("Book now", "לקביעת תור"). */
  bookingActions: number;
  /** <pre> blocks and multi-line <code>: a documentation page's tell. */
  codeBlocks: number;
}

const BOOKING_ACTION =
  /\b(book|book now|book online|book an appointment|book a table|reserve|reserve now|schedule|register|sign me up|enroll|enroll now|join now|check availability)\b|לקביעת תור|קבעו תור|קביעת תור|הזמינו מקום|הזמנת מקום|הרשמה|להרשמה|הירשמו|תאמו|בדיקת זמינות/i;
const CART_ACTION =
  /\b(add to (cart|bag|basket)|buy now|buy it now|add to order)\b|הוספה לסל|הוסף לסל|הוסיפו לסל|הוספה לעגלה|קנה עכשיו|קנו עכשיו|לרכישה/i;

export function collectPageSignals($: CheerioAPI): PageSignals {
  const structuredTypes = new Set<string>();
  $('script[type="application/ld+json" i]').each((_index, element) => {
    try {
      collectTypes(JSON.parse($(element).text()), structuredTypes, 0);
    } catch {
      // A broken JSON-LD block says nothing; the page's words still do.
    }
  });
  $('[itemtype]').each((_index, element) => {
    for (const type of ($(element).attr('itemtype') ?? '').split(/\s+/)) {
      const name = type.replace(/^.*[/#]/, '');
      if (name) structuredTypes.add(name);
    }
  });

  const formFields = new Set<string>();
  $('input, textarea, select').each((_index, element) => {
    const $field = $(element);
    const type = ($field.attr('type') ?? (element.name === 'textarea' ? 'textarea' : 'text')).toLowerCase();
    const name =
      `${$field.attr('name') ?? ''} ${$field.attr('id') ?? ''} ${$field.attr('autocomplete') ?? ''} ${$field.attr('placeholder') ?? ''}`.toLowerCase();
    if (type === 'hidden' || type === 'search' || type === 'submit') return;
    if (type === 'email' || /e-?mail|אימייל|דוא"ל/.test(name)) formFields.add('email');
    if (type === 'tel' || /phone|tel\b|טלפון|נייד/.test(name)) formFields.add('tel');
    if (type === 'date' || type === 'datetime-local' || /\bdate\b|תאריך/.test(name)) formFields.add('date');
    if (type === 'time' || /\btime\b|slot|שעה/.test(name)) formFields.add('time');
    if (type === 'textarea' || /message|comments?|הודעה/.test(name)) formFields.add('message');
    if (/cc-|card|cvv|cvc|expir|כרטיס|תוקף/.test(name)) formFields.add('card');
    if (type === 'number' && /qty|quantity|כמות/.test(name)) formFields.add('quantity');
    if (/address|street|zip|postal|shipping|billing|כתובת|מיקוד/.test(name)) formFields.add('address');
  });

  let cartActions = 0;
  let bookingActions = 0;
  $('button, a, input[type="submit"]').each((_index, element) => {
    const $element = $(element);
    const label = `${$element.text()} ${$element.attr('value') ?? ''} ${$element.attr('aria-label') ?? ''}`;
    if (
      CART_ACTION.test(label) ||
      /add[-_]?to[-_]?cart/i.test(`${$element.attr('class') ?? ''} ${$element.attr('name') ?? ''}`)
    )
      cartActions++;
    else if (label.trim().length < 40 && BOOKING_ACTION.test(label)) bookingActions++;
  });

  const codeBlocks = $('pre').length + $('code').filter((_index, element) => $(element).text().includes('\n')).length;
  return {
    structuredTypes: [...structuredTypes],
    formFields: [...formFields],
    cartActions,
    bookingActions,
    codeBlocks,
  };
}

function collectTypes(value: unknown, into: Set<string>, depth: number) {
  if (depth > 6 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) collectTypes(item, into, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  const type = record['@type'];
  for (const name of Array.isArray(type) ? type : [type])
    if (typeof name === 'string') into.add(name.replace(/^.*[/#]/, ''));
  for (const [key, child] of Object.entries(record)) if (key !== '@context') collectTypes(child, into, depth + 1);
}

export const noPageSignals: PageSignals = {
  structuredTypes: [],
  formFields: [],
  cartActions: 0,
  bookingActions: 0,
  codeBlocks: 0,
};
