import type { ActionFields } from '@kesher/contracts';

/**
 * Reads an action's inputs from what the visitor wrote, for the built-in engine (a model fills them
 * itself). Only what can be read without guessing: an e-mail, an address, a date, a yes/no, a number, and
 * for a text input a value written after its name ("order id: A-1234", "שם: דנה") or, for id/number/code
 * inputs, a token with digits. The newest message is read first.
 */
type Input = ActionFields['apiInputs'][number];

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/u;
const URL_PATTERN = /https?:\/\/[^\s]+/u;
const DATE = /\b(\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})\b/u;
const NUMBER = /(?<![\p{L}\d.-])\d+(?:\.\d+)?(?![\p{L}\d-])/u;
const ID_TOKEN = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}-]*\d)[\p{L}\p{N}][\p{L}\p{N}-]{2,39}(?![\p{L}\p{N}])/u;

/** The input's name as words ("order_id" → "order id"), for "name: value". */
const nameWords = (name: string) =>
  name
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function readOne(input: Input, text: string): string | number | boolean | undefined {
  const named = new RegExp(
    `(?:${escape(nameWords(input.name))}|${escape(input.name)}${input.description ? `|${escape(input.description.toLowerCase())}` : ''})\\s*(?:is|=|:|-)?\\s*["“]?([^\\s,;"”]+(?:\\s[^\\s,;"”]+)?)`,
    'iu',
  );
  switch (input.type) {
    case 'email':
      return EMAIL.exec(text)?.[0];
    case 'url':
      return URL_PATTERN.exec(text)?.[0];
    case 'date':
      return DATE.exec(text)?.[1];
    case 'boolean':
      if (/\b(yes|yeah|sure|true)\b|כן|בטח/iu.test(text)) return true;
      if (/\b(no|false)\b|לא/iu.test(text)) return false;
      return undefined;
    case 'number': {
      const m = NUMBER.exec(text);
      return m ? Number(m[0]) : undefined;
    }
    default: {
      const byName = named.exec(text)?.[1];
      if (byName) return byName.split(/\s/)[0];
      if (/(id|number|code|ref|num|no)$/i.test(input.name)) return ID_TOKEN.exec(text)?.[0];
      return undefined;
    }
  }
}

/** The inputs found, and the required ones missing. `texts` newest first. */
export function readInputs(
  action: ActionFields,
  texts: readonly string[],
): { values: Record<string, string | number | boolean>; missing: Input[] } {
  const values: Record<string, string | number | boolean> = {};
  const missing: Input[] = [];
  for (const input of action.apiInputs) {
    let found: string | number | boolean | undefined;
    for (const text of texts) {
      found = readOne(input, text);
      if (found !== undefined) break;
    }
    if (found !== undefined) values[input.name] = found;
    else if (input.required) missing.push(input);
  }
  return { values, missing };
}
