import { CharacterBudget, type DraftSection } from './extracted-text.js';
import { extractionErrors } from './extraction-error.js';
import { decodeText } from './text-encoding.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isContainer = (value: Json): value is Json[] | { [key: string]: Json } =>
  typeof value === 'object' && value !== null;

/**
 * `{ a: { b: 1 }, c: [x, y] }` → ["a.b: 1", "c: x, y"]; arrays of objects are numbered. Every line
 * repeats its path, so a deep, wide document expands far beyond its size: lines are counted as written.
 */
function flatten(value: Json, path: string, lines: string[], budget: CharacterBudget) {
  const push = (line: string) => {
    budget.add(line.length + 1);
    lines.push(line);
  };
  if (Array.isArray(value)) {
    if (value.every((item) => !isContainer(item))) {
      const items = value.filter((item) => item !== null && item !== '').map(String);
      if (items.length > 0) push(path ? `${path}: ${items.join(', ')}` : items.join(', '));
    } else value.forEach((item, index) => flatten(item, `${path}[${index + 1}]`, lines, budget));
  } else if (isContainer(value)) {
    for (const [key, item] of Object.entries(value)) flatten(item, path ? `${path}.${key}` : key, lines, budget);
  } else if (value !== null && value !== '') push(path ? `${path}: ${String(value)}` : String(value));
}

/** One paragraph per element of a list of records, so a passage keeps whole records together. */
function paragraphs(value: Json, budget: CharacterBudget): string {
  const items = Array.isArray(value) && value.some(isContainer) ? value : [value];
  return items
    .map((item) => {
      const lines: string[] = [];
      flatten(item, '', lines, budget);
      return lines.join('\n');
    })
    .filter(Boolean)
    .join('\n\n');
}

/**
 * JSON is flattened into "path: value" lines, which read well and keep each value next to its name.
 * A top-level object whose members are objects or lists (a product catalogue, a FAQ keyed by topic)
 * becomes one section per member; a top-level list, one paragraph per element.
 */
export function extractJson(bytes: Uint8Array): DraftSection[] {
  let root: Json;
  try {
    root = JSON.parse(decodeText(bytes)) as Json;
  } catch (error) {
    throw extractionErrors.corrupt('json', error);
  }
  const budget = new CharacterBudget();
  if (isContainer(root) && !Array.isArray(root)) {
    const scalars: { [key: string]: Json } = {};
    const sections: DraftSection[] = [];
    for (const [key, value] of Object.entries(root)) {
      if (isContainer(value)) sections.push({ title: key, text: paragraphs(value, budget), titleInText: true });
      else scalars[key] = value;
    }
    const head = paragraphs(scalars, budget);
    return head ? [{ title: null, text: head, titleInText: false }, ...sections] : sections;
  }
  return [{ title: null, text: paragraphs(root, budget), titleInText: false }];
}
