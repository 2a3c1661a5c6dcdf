import { Parser } from 'htmlparser2';

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

export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#document', attributes: {}, children: [] };
  const stack: XmlElement[] = [root];
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const element: XmlElement = { name: localName(name), attributes, children: [] };
        stack[stack.length - 1]!.children.push(element);
        stack.push(element);
      },
      ontext(text) {
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
