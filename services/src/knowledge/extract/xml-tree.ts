import { Parser } from 'htmlparser2';
import { knowledgeLimits } from '../limits.js';
import type { CharacterBudget } from './extracted-text.js';

/**
 * A minimal element tree for the XML parts of Office files. Element names are kept without their
 * namespace prefix (`a:t` → `t`, `x:row` → `row`): producers pick prefixes freely, and within one part
 * the local names we look for are unambiguous.
 */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** An element nested deeper than any real Office file nests them: a file built to exhaust a recursive reader. */
export class XmlTooDeepError extends Error {
  constructor(depth: number) {
    super(`XML nested more than ${depth} elements deep`);
    this.name = 'XmlTooDeepError';
  }
}

export interface ParseXmlOptions {
  maxDepth?: number;
  /** Counts the part's text as it is parsed, for parts whose text is the file's text (slides, shared strings). */
  textBudget?: CharacterBudget;
}

export function parseXml(xml: string, options: ParseXmlOptions = {}): XmlElement {
  const maxDepth = options.maxDepth ?? knowledgeLimits.maxXmlDepth;
  const root: XmlElement = { name: '#document', attributes: {}, children: [] };
  const stack: XmlElement[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element: XmlElement = { name: localName(name), attributes, children: [] };
        stack[stack.length - 1]!.children.push(element);
        stack.push(element);
        if (stack.length > maxDepth) throw new XmlTooDeepError(maxDepth);
      },
      ontext(text) {
        if (options.textBudget && /\S/.test(text)) options.textBudget.add(text.length);
        stack[stack.length - 1]!.children.push(text);
      },
      onclosetag() {
        if (stack.length > 1) stack.pop();
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return root;
}

/**
 * Reads XML without keeping it: enforces the depth limit and counts the text, so a part that is too deep
 * or holds too much text is refused before a library builds its own tree of it.
 */
export function scanXml(xml: string, options: ParseXmlOptions = {}): void {
  const maxDepth = options.maxDepth ?? knowledgeLimits.maxXmlDepth;
  let depth = 0;
  const parser = new Parser(
    {
      onopentag() {
        if (++depth > maxDepth) throw new XmlTooDeepError(maxDepth);
      },
      ontext(text) {
        if (options.textBudget && /\S/.test(text)) options.textBudget.add(text.length);
      },
      onclosetag() {
        depth = Math.max(0, depth - 1);
      },
    },
    { xmlMode: true, decodeEntities: false },
  );
  parser.write(xml);
  parser.end();
}

const isElement = (node: XmlNode): node is XmlElement => typeof node !== 'string';

/** Direct children with this local name. */
export function childElements(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child): child is XmlElement => isElement(child) && child.name === name);
}

export function firstChild(element: XmlElement, name: string): XmlElement | undefined {
  return childElements(element, name)[0];
}

/** All descendants with this local name, in document order; does not look inside a match. */
export function findElements(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const walk = (node: XmlElement) => {
    for (const child of node.children) {
      if (!isElement(child)) continue;
      if (child.name === name) found.push(child);
      else walk(child);
    }
  };
  walk(element);
  return found;
}

/** Concatenated text of every `textElement` descendant (`t` in Office XML), skipping subtrees named in `skip`. */
export function elementText(element: XmlElement, textElement = 't', skip: readonly string[] = []): string {
  let text = '';
  const walk = (node: XmlElement, inText: boolean) => {
    for (const child of node.children) {
      if (typeof child === 'string') {
        if (inText) text += child;
      } else if (!skip.includes(child.name)) walk(child, inText || child.name === textElement);
    }
  };
  walk(element, element.name === textElement);
  return text;
}

/**
 * The relationship id of an element (`r:id`, `r:embed`…): the prefixed attribute with this local name,
 * since an unprefixed `id` on the same element means something else (slide ids in presentation.xml).
 */
export function relationshipAttribute(element: XmlElement, local = 'id'): string | undefined {
  for (const [name, value] of Object.entries(element.attributes)) {
    if (name.includes(':') && localName(name) === local) return value;
  }
  return undefined;
}
