import { analyticsMessages } from '../rules/analytics.js';
import { automationMessages } from '../rules/automation.js';
import { chatMessages } from '../rules/chat.js';
import { crawlerMessages } from '../rules/crawler.js';
import { messages } from '../rules/messages.js';
import { accountMessages } from './auth.dto.js';
import { requestMessages } from './errors.dto.js';
import { fileMessages } from './files.dto.js';
import { driveMessages } from './google-drive.dto.js';
import { integrationMessages } from './integrations.dto.js';
import { curatedMessages } from './curated-answers.dto.js';
import {
  billingMessages,
  channelSetupMessages,
  crawlMessages,
  knowledgeFileMessages,
  passwordMessages,
  planMessages,
  signInMessages,
  siteMessages,
  threadMessages,
} from './errors.catalogue.js';

/**
 * Stable codes for the server's texts: each text's code is its catalogue's name and its key
 * (`common.notFound`, `chat.threadNotFound`, `integration.paused.telegram`). The error handler looks the
 * detail up here, so no throw site names its code; the client translates by code and falls back to the
 * English sentence. Renaming a key renames its code: the client's test fails until its Hebrew follows.
 */
export const errorCatalogues = {
  common: messages,
  chat: chatMessages,
  crawler: crawlerMessages,
  analytics: analyticsMessages,
  automation: automationMessages,
  account: accountMessages,
  file: fileMessages,
  drive: driveMessages,
  integration: integrationMessages,
  request: requestMessages,
  curated: curatedMessages,
  signIn: signInMessages,
  password: passwordMessages,
  thread: threadMessages,
  knowledgeFile: knowledgeFileMessages,
  crawl: crawlMessages,
  plan: planMessages,
  channelSetup: channelSetupMessages,
  site: siteMessages,
  billing: billingMessages,
} as const;

/** The codes of one catalogue node: its key path for a text, none for a bilingual entry (said, not refused). */
type CodesIn<Node, Path extends string> = Node extends string | ((...args: never[]) => string)
  ? Path
  : Node extends { en: string; he: string }
    ? never
    : Node extends object
      ? { [Key in keyof Node & string]: CodesIn<Node[Key], `${Path}.${Key}`> }[keyof Node & string]
      : never;

/**
 * Every code of the catalogues, as a type (`common.assistantNotFound`, `integration.paused.telegram`): a
 * throw site that names its code names one the catalogues have, or it does not compile.
 */
export type ErrorCode = {
  [Name in keyof typeof errorCatalogues & string]: CodesIn<(typeof errorCatalogues)[Name], Name>;
}[keyof typeof errorCatalogues & string];

/** A catalogue text: plain, or a function that words a parametrised one. */
export type CatalogueText = string | ((...args: never[]) => string);

/** What the handler sends beside the detail: its code, and for a parametrised text the values it shows. */
export interface CodedText {
  code: string;
  args?: string[];
}

/**
 * Every text of the catalogues with its code. A bilingual entry (`{ en, he }`, said inside an answer, never
 * as an error) carries its own Hebrew and is left out.
 */
export function errorCodeEntries(
  catalogues: Readonly<Record<string, object>> = errorCatalogues,
): [code: string, text: CatalogueText][] {
  const entries: [string, CatalogueText][] = [];
  const walk = (prefix: string, node: unknown) => {
    if (typeof node === 'string' || typeof node === 'function') entries.push([prefix, node as CatalogueText]);
    else if (node && typeof node === 'object' && !('en' in node && 'he' in node)) {
      for (const [key, value] of Object.entries(node)) walk(`${prefix}.${key}`, value);
    }
  };
  for (const [name, catalogue] of Object.entries(catalogues)) walk(name, catalogue);
  return entries;
}

/** How a parametrised text is recognised: its wording with a group where each value stands. */
interface TextPattern {
  code: string;
  regex: RegExp;
  /** The parameter each capture group holds. */
  params: number[];
  arity: number;
  /** Characters of fixed wording: the more, the more specific (tried first). */
  fixed: number;
}

/** Private-use characters: no real text contains them, so a value stands out wherever the function put it. */
const mark = (i: number) => `\u{E000}${i}\u{E001}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The pattern of one wording: `values` says where each parameter's value stands in `text` (a RegExp over
 * the text whose matches are, in order, the values, and which parameter each is).
 */
function patternOf(
  code: string,
  arity: number,
  text: string,
  values: RegExp,
  paramOf: (match: string) => number | undefined,
): TextPattern | undefined {
  let source = '^';
  let fixed = 0;
  let at = 0;
  const params: number[] = [];
  const groupOf = new Map<number, number>();
  for (const match of text.matchAll(values)) {
    const literal = text.slice(at, match.index);
    source += escape(literal);
    fixed += literal.length;
    at = match.index + match[0].length;
    const param = paramOf(match[0]);
    if (param === undefined) return undefined;
    const group = groupOf.get(param);
    if (group !== undefined) source += `\\${group}`;
    else {
      params.push(param);
      groupOf.set(param, params.length);
      source += '(.+?)';
    }
  }
  source += `${escape(text.slice(at))}$`;
  fixed += text.length - at;
  return { code, regex: new RegExp(source, 's'), params, arity, fixed };
}

/**
 * A parametrised text's patterns: its wording with a mark for each value, and for one value also its
 * wording for 1 (a count's singular: "1 assistant"). A value the function turns into a number (bytes shown
 * as KB) shows as NaN with a mark; it is the one parameter whose mark is missing.
 */
function patternsOf(code: string, words: (...args: unknown[]) => string): TextPattern[] {
  const arity = words.length;
  const marked = words(...Array.from({ length: arity }, (_, i) => mark(i)));
  const missing = Array.from({ length: arity }, (_, i) => i).filter((i) => !marked.includes(mark(i)));
  const patterns = [
    patternOf(code, arity, marked, /\u{E000}(\d+)\u{E001}|NaN/gu, (value) =>
      value === 'NaN' ? (missing.length === 1 ? missing[0] : undefined) : Number(value.slice(1, -1)),
    ),
  ];
  if (arity === 1) patterns.push(patternOf(code, arity, words(1), /(?<![\d.,])1(?![\d.,])/g, () => 0));
  // A wording that shows none of its values (1 KB rounded to "0 KB") would claim that one text only.
  return patterns.filter((pattern): pattern is TextPattern => !!pattern && pattern.params.length > 0);
}

/**
 * The lookup for a set of catalogues: plain texts by their words, parametrised ones by their patterns, the
 * most specific wording first ("The API could not be reached: …" before "<channel> could not be reached: …"),
 * whatever order the catalogues list them in.
 */
export function createErrorCodes(
  catalogues: Readonly<Record<string, object>>,
): (text: string) => CodedText | undefined {
  const exact = new Map<string, string>();
  const patterns: TextPattern[] = [];
  for (const [code, text] of errorCodeEntries(catalogues)) {
    if (typeof text === 'string') exact.set(text, code);
    else patterns.push(...patternsOf(code, text as (...args: unknown[]) => string));
  }
  patterns.sort((a, b) => b.fixed - a.fixed);
  return (text) => {
    const code = exact.get(text);
    if (code) return { code };
    for (const pattern of patterns) {
      const match = pattern.regex.exec(text);
      if (!match) continue;
      const args = Array.from({ length: pattern.arity }, () => '');
      pattern.params.forEach((param, group) => (args[param] = match[group + 1]!));
      return { code: pattern.code, args };
    }
    return undefined;
  };
}

/** The code of a server text (and the values a parametrised one shows); undefined for a text outside the catalogues. */
export const errorCodeFor = createErrorCodes(errorCatalogues);
