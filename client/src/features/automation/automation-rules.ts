import {
  automationLimits,
  type ActionInputType,
  parseTemplate,
  renderJsonTemplate,
  sampleInputValue,
  templateInputs,
} from '@kesher/contracts';

/**
 * The pure rules behind the workflows, guidelines and actions pages (spec part 2 §2, §3, §5, §7, §9):
 * what the search and filters keep, what a card shows, how a form's lists are cleaned before sending,
 * and the sample inputs an action's Test sends.
 */

/** Spec §9: a workflow card shows at most three of its phrases; five or more are recommended. */
export const CARD_PHRASES = automationLimits.phrasesOnCard;
export const RECOMMENDED_PHRASES = automationLimits.recommendedPhrases;

/** Case-insensitive "contains" over the given fields; a blank search keeps everything. */
export function matchesSearch(search: string, ...fields: (string | null | undefined)[]): boolean {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return true;
  return fields.some((field) => (field ?? '').toLocaleLowerCase().includes(needle));
}

/** Spec §5: empty training phrases are removed before sending (trimmed, and each phrase once). */
export function cleanPhrases(phrases: readonly string[]): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of phrases) {
    const phrase = raw.trim();
    const key = phrase.toLocaleLowerCase();
    if (!phrase || seen.has(key)) continue;
    seen.add(key);
    kept.push(phrase);
  }
  return kept;
}

/** Spec §5: headers with an empty key or value are dropped; none left means no headers at all. */
export function cleanHeaders(
  headers: readonly { key: string; value: string }[],
): { key: string; value: string }[] | undefined {
  const kept = headers.map((h) => ({ key: h.key.trim(), value: h.value.trim() })).filter((h) => h.key && h.value);
  return kept.length > 0 ? kept : undefined;
}

/** Spec §2: a body template is only sent (and shown) when the method is not GET. */
export const takesBody = (method: string) => method !== 'GET';

/** Spec §7: the Test call's sample values — 123 for a number, true for a boolean, "test_value" otherwise. */
export function sampleTestInputs(
  inputs: readonly { name: string; type: ActionInputType }[],
): Record<string, string | number | boolean> {
  return Object.fromEntries(inputs.map((input) => [input.name, sampleInputValue(input.type)]));
}

/** Spec §2: an input on a card reads "name (type)", with * when it is required. */
export const inputLabel = (input: { name: string; type: string; required: boolean }) =>
  `${input.name} (${input.type})${input.required ? '*' : ''}`;

export type TemplateProblem = { kind: 'malformed' } | { kind: 'unknown'; names: string[] } | { kind: 'invalidJson' };

/**
 * What the form says under a template as it is typed (the server refuses the same things when saving,
 * with the contracts' parser): a malformed placeholder, placeholders that name no input, a body that is
 * not JSON once sample values are put in. Null when it is fine (or empty).
 */
export function templateProblem(
  template: string,
  inputs: readonly { name: string; type: ActionInputType }[],
  json = false,
): TemplateProblem | null {
  if (!template.trim()) return null;
  const names = templateInputs(template);
  if (names === null) return { kind: 'malformed' };
  const known = new Set(inputs.map((input) => input.name));
  const unknown = [...new Set(names.filter((name) => !known.has(name)))];
  if (unknown.length > 0) return { kind: 'unknown', names: unknown };
  if (json) {
    try {
      JSON.parse(renderJsonTemplate(parseTemplate(template)!, sampleTestInputs(inputs)));
    } catch {
      return { kind: 'invalidJson' };
    }
  }
  return null;
}

/** A knowledge-base source added by URL (spec §3): its type is url and its name the URL itself. */
export const urlSource = (url: string) => ({ type: 'url', name: url.trim(), url: url.trim() });

/** An address the server will take as an endpoint or source: http(s) with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Names of the linked actions that still exist, in the card's order (a deleted action simply drops out). */
export function linkedActionNames(
  linked: readonly string[],
  actions: readonly { id: string; title: string }[],
): string[] {
  const byId = new Map(actions.map((action) => [action.id, action.title]));
  return linked.map((id) => byId.get(id)).filter((title): title is string => title !== undefined);
}

/** "@" in the guideline's instructions suggests the actions (spec §2 hint): the word being typed after it. */
export function mentionQuery(text: string, caret: number): string | null {
  const match = /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  return match ? match[1]! : null;
}

/** Replaces the "@query" before the caret with "@title " and returns the new text and caret. */
export function insertMention(text: string, caret: number, title: string): { text: string; caret: number } {
  const before = text.slice(0, caret).replace(/@([^\s@]*)$/, `@${title} `);
  return { text: before + text.slice(caret), caret: before.length };
}
