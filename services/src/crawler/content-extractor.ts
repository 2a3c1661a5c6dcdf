import type { CheerioAPI, Cheerio } from 'cheerio';
import type { AnyNode, Element } from 'domhandler';

/**
 * A page's main content: what a reader came for, without the site's navigation, header, footer,
 * sidebars, cookie banner and scripts, which repeat on every page and would drown the assistant's
 * knowledge in menus. Landmarks (nav, aside, site header/footer, ARIA roles) and their class-name
 * equivalents go first; then <main> (or a single <article>, or a content container) is preferred when
 * it holds the text; then link-dense blocks left inside (tag clouds, related-post lists) are pruned.
 */
export interface ExtractedContent {
  title: string | null;
  description: string | null;
  language: 'he' | 'en' | 'other';
  /** The main content as clean HTML (headings kept), for the knowledge ingestion's HTML extractor. */
  mainHtml: string;
  /** The main content as text: lines, and blank lines between paragraphs. */
  text: string;
  /** h1–h3 of the main content, in order. */
  headings: string[];
  /** Which element the content came from. */
  root: 'main' | 'article' | 'content-container' | 'body';
  /** Characters of text in the whole body before anything was removed. */
  bodyCharacters: number;
}

/** Never content. */
const DROPPED_TAGS =
  'script, style, noscript, template, svg, canvas, iframe, object, embed, video, audio, select, button, input, textarea, dialog, link, meta';
/** Site furniture by element or role. header/footer only count at site level (see isSiteLevel). */
const LANDMARKS =
  'nav, aside, [role="navigation"], [role="complementary"], [role="banner"], [role="contentinfo"], [role="search"], [role="dialog"], [role="alertdialog"]';
/** Class or id words that name furniture wherever they stand. */
const FURNITURE_WORDS = new Set([
  'cookie',
  'cookies',
  'consent',
  'gdpr',
  'onetrust',
  'cmp',
  'newsletter',
  'popup',
  'modal',
  'breadcrumb',
  'breadcrumbs',
  'sidebar',
  'share',
  'sharing',
  'social',
  'skip',
  'skiplink',
  'navbar',
  'nav',
  'navigation',
  'offcanvas',
  'drawer',
  'topbar',
  'toolbar',
  'backtotop',
  'accessibility',
  'a11y',
  'advert',
  'advertisement',
  'ads',
  'sponsored',
  'comments',
  'megamenu',
  'toc',
  'tableofcontents',
  'feedback',
  'disclaimer',
  'whatsapp',
]);
/** Words that name furniture only at site level (an article has its own header). */
const SITE_LEVEL_WORDS = new Set(['header', 'footer', 'masthead', 'colophon']);
/** Words that name furniture only when the block is mostly links (a restaurant's "menu" is content). */
const LINK_LIST_WORDS = new Set(['menu', 'widget', 'widgets', 'related', 'tags', 'tagcloud', 'pagination', 'pager']);
const CONTENT_CONTAINERS =
  '#content, #main, #primary, .content, .main-content, .site-content, .page-content, .entry-content, .post-content, .article-content, .post-body';
const PROTECTED = 'main, [role="main"], article';
const COOKIE_TEXT = /\b(cookies?|gdpr)\b|עוגיות|קובצי\s*cookie/i;
const CONSENT_ACTION = /\b(accept|agree|allow|got it|ok)\b|אישור|מאשר|מסכים|הבנתי|קבל/i;

const BLOCKS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'blockquote',
  'ul',
  'ol',
  'table',
  'dl',
  'figure',
  'figcaption',
  'form',
  'fieldset',
  'address',
  'pre',
  'hr',
  'details',
  'summary',
  'caption',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);
const LINES = new Set(['li', 'tr', 'dt', 'dd', 'br', 'label', 'option']);

export interface ExtractOptions {
  /**
   * Called once the site's furniture is gone but forms, buttons and scripts are still there: the moment
   * to read the page's own signals (a site-wide newsletter box or booking widget must not count).
   */
  onFurnitureRemoved?: ($: CheerioAPI) => void;
}

/** Changes the document: run link discovery before it. */
export function extractMainContent($: CheerioAPI, options: ExtractOptions = {}): ExtractedContent {
  const body: Cheerio<AnyNode> = $('body').length > 0 ? $('body').first() : $.root();
  const title =
    clean($('head > title').first().text() || $('title').first().text()) ||
    clean($('meta[property="og:title"]').attr('content') ?? '') ||
    null;
  const description =
    clean(
      $('meta[name="description" i]').attr('content') ?? $('meta[property="og:description"]').attr('content') ?? '',
    ) || null;
  const bodyCharacters = clean(body.text()).length;

  $('[hidden], [aria-hidden="true"]').remove();
  $('[style]').each((_index, element) => {
    if (/display\s*:\s*none|visibility\s*:\s*hidden/i.test($(element).attr('style') ?? '')) $(element).remove();
  });
  $(LANDMARKS).each((_index, element) => {
    if (!containsProtected($, element)) $(element).remove();
  });
  // An article keeps its own <header> (its title often lives there); a <footer> anywhere holds tags,
  // share buttons, "edit this page" — never the content.
  $('header').each((_index, element) => {
    if (isSiteLevel($, element) && !containsProtected($, element)) $(element).remove();
  });
  $('footer').each((_index, element) => {
    if (!containsProtected($, element)) $(element).remove();
  });
  $('[class], [id]').each((_index, element) => {
    if (!element.parent || containsProtected($, element) || element.name === 'body' || element.name === 'html') return;
    const words = classWords($(element));
    const furniture =
      words.some((word) => FURNITURE_WORDS.has(word)) ||
      (words.some((word) => SITE_LEVEL_WORDS.has(word)) && isSiteLevel($, element)) ||
      (words.some((word) => LINK_LIST_WORDS.has(word)) && linkDensity($, $(element)) > 0.5);
    if (furniture) $(element).remove();
  });
  // A cookie banner without telling class names: a short block about cookies with an accept button.
  // (A bakery's paragraph about cookies has no such button.)
  $('div, section').each((_index, element) => {
    const $element = $(element);
    if (!element.parent) return;
    const text = clean($element.text());
    if (text.length >= 600 || !COOKIE_TEXT.test(text) || containsProtected($, element)) return;
    const accepts = $element
      .find('button, [role="button"], a')
      .toArray()
      .some((action) => CONSENT_ACTION.test(clean($(action).text())) && clean($(action).text()).length < 30);
    if (accepts) $element.remove();
  });

  options.onFurnitureRemoved?.($);
  $(DROPPED_TAGS).remove();

  const { root, kind } = chooseRoot($, body);
  pruneLinkLists($, root);

  const headings = root
    .find('h1, h2, h3')
    .toArray()
    .map((heading) => clean($(heading).text()))
    .filter(Boolean);
  const text = renderText(root.toArray());
  return {
    title: title ?? (headings[0] || null),
    description,
    language: languageOf(text || title || ''),
    mainHtml: `${title ? `<title>${escapeHtml(title)}</title>` : ''}${serialize(kind === 'body' ? ((root.toArray()[0] as Element | undefined)?.children ?? []) : root.toArray())}`,
    text,
    headings,
    root: kind,
    bodyCharacters,
  };
}

function chooseRoot($: CheerioAPI, body: Cheerio<AnyNode>): { root: Cheerio<AnyNode>; kind: ExtractedContent['root'] } {
  const total = clean(body.text()).length;
  const enough = (candidate: Cheerio<AnyNode>) => clean(candidate.text()).length >= Math.min(200, total * 0.3);
  const largest = (selector: string) =>
    $(selector)
      .toArray()
      .map((element) => $(element))
      .sort((a, b) => clean(b.text()).length - clean(a.text()).length)[0];

  const main = largest('main, [role="main"]');
  if (main && enough(main)) return { root: main, kind: 'main' };
  const articles = $('article')
    .toArray()
    .filter((article) => $(article).parents('article').length === 0);
  if (articles.length === 1 && enough($(articles[0]!))) return { root: $(articles[0]!), kind: 'article' };
  const container = largest(CONTENT_CONTAINERS);
  if (container && enough(container) && clean(container.text()).length >= total * 0.5)
    return { root: container, kind: 'content-container' };
  return { root: body, kind: 'body' };
}

/** Blocks that are mostly links and have several of them: lists of other pages, not this page's content. */
function pruneLinkLists($: CheerioAPI, root: Cheerio<AnyNode>) {
  const blocks = root.find('ul, ol, div, section, table, p').toArray().reverse();
  for (const block of blocks) {
    if (!block.parent) continue;
    const $block = $(block);
    if (linksIn($block.toArray()).count < 2) continue;
    if (linkDensity($, $block) > 0.6 && clean($block.text()).length < 2000) $block.remove();
  }
}

function linkDensity($: CheerioAPI, element: Cheerio<AnyNode>): number {
  const all = clean(element.text()).length;
  if (all === 0) return 0;
  return linksIn(element.toArray()).characters / all;
}

/**
 * The links under some nodes and the characters of their text, by one walk of the tree. Not
 * `$(…).find('a')`: cheerio removes nested results from a find in time that grows with the square of
 * the matches, and a page of 10,000 links took seconds to read.
 */
function linksIn(nodes: readonly AnyNode[]): { count: number; characters: number } {
  let count = 0;
  let characters = 0;
  const textOf = (node: AnyNode): string =>
    node.type === 'text'
      ? (node as unknown as { data: string }).data
      : node.type === 'tag'
        ? (node as Element).children.map(textOf).join('')
        : '';
  const walk = (node: AnyNode) => {
    if (node.type !== 'tag' && node.type !== 'root') return;
    const element = node as Element;
    if (node.type === 'tag' && element.name === 'a') {
      count++;
      characters += clean(textOf(element)).length;
      return;
    }
    for (const child of element.children) walk(child);
  };
  for (const node of nodes) walk(node);
  return { count, characters };
}

/** An element that is not inside an article, a section or the main content: the site's, not the page's. */
const isSiteLevel = ($: CheerioAPI, element: Element) =>
  $(element).parents('article, main, section, [role="main"]').length === 0;
const containsProtected = ($: CheerioAPI, element: Element) => $(element).find(PROTECTED).length > 0;

function classWords($element: Cheerio<Element>): string[] {
  const names = `${$element.attr('class') ?? ''} ${$element.attr('id') ?? ''}`;
  return names
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean);
}

/** The text of the content with its block structure: lines, blank lines between paragraphs, table cells joined by " | ". */
function renderText(nodes: AnyNode[]): string {
  const out: string[] = [];
  let line = '';
  const endLine = (paragraph: boolean) => {
    const trimmed = line.replace(/\s+/g, ' ').trim();
    if (trimmed) out.push(trimmed);
    line = '';
    if (paragraph && out.length > 0 && out[out.length - 1] !== '') out.push('');
  };
  const walk = (node: AnyNode) => {
    if (node.type === 'text') {
      line += (node as unknown as { data: string }).data;
      return;
    }
    if (node.type !== 'tag') return;
    const element = node as Element;
    const name = element.name;
    if (name === 'td' || name === 'th') {
      if (element.prev && line.trim()) line += ' | ';
    } else if (BLOCKS.has(name)) endLine(true);
    else if (LINES.has(name)) endLine(false);
    for (const child of element.children) walk(child);
    if (BLOCKS.has(name)) endLine(true);
    else if (LINES.has(name) && name !== 'br') endLine(false);
  };
  for (const node of nodes) {
    if (node.type === 'tag' || node.type === 'root') for (const child of (node as Element).children) walk(child);
    else walk(node);
  }
  endLine(true);
  return out.join('\n').trim();
}

export function languageOf(text: string): 'he' | 'en' | 'other' {
  const hebrew = (text.match(/[\u05D0-\u05EA]/g) ?? []).length;
  const latin = (text.match(/[A-Za-z]/g) ?? []).length;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (letters === 0) return 'other';
  if (hebrew / letters >= 0.3) return 'he';
  if (latin / letters >= 0.5) return 'en';
  return 'other';
}

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'hr', 'img', 'source', 'track', 'wbr']);

/**
 * HTML of the kept nodes with only &, <, > and quotes escaped: cheerio's serializer writes every
 * Hebrew letter as a numeric entity, which triples the size of a Hebrew page for nothing.
 */
function serialize(nodes: readonly AnyNode[]): string {
  let html = '';
  for (const node of nodes) {
    if (node.type === 'text') html += escapeHtml((node as unknown as { data: string }).data);
    else if (node.type === 'tag') {
      const element = node as Element;
      const attributes = Object.entries(element.attribs)
        .filter(([name]) => !name.startsWith('on'))
        .map(([name, value]) => ` ${name}="${escapeHtml(value).replace(/"/g, '&quot;')}"`)
        .join('');
      html += `<${element.name}${attributes}>`;
      if (!VOID_ELEMENTS.has(element.name)) html += `${serialize(element.children)}</${element.name}>`;
    }
  }
  return html;
}

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The share of extracted characters that are boilerplate: lines equal to a known navigation/footer
 * label, plus every occurrence of a longer known boilerplate sentence. The test site and the benchmark
 * know their own boilerplate; this turns that knowledge into the figure `extraction_boilerplate_ratio`.
 */
export function measureBoilerplate(
  text: string,
  boilerplate: readonly string[],
): { boilerplateCharacters: number; totalCharacters: number; ratio: number } {
  const normalized = clean(text.replace(/\n/g, ' \n '));
  const lines = text.split('\n').map(clean).filter(Boolean);
  const totalCharacters = lines.join(' ').length;
  const short = new Set(boilerplate.map(clean).filter((snippet) => snippet.length < 20));
  let boilerplateCharacters = 0;
  for (const lineText of lines) if (short.has(lineText)) boilerplateCharacters += lineText.length;
  for (const snippet of boilerplate.map(clean).filter((value) => value.length >= 20)) {
    let from = 0;
    for (let at = normalized.indexOf(snippet, from); at >= 0; at = normalized.indexOf(snippet, from)) {
      boilerplateCharacters += snippet.length;
      from = at + snippet.length;
    }
  }
  return {
    boilerplateCharacters,
    totalCharacters,
    ratio: totalCharacters === 0 ? 0 : Math.min(1, boilerplateCharacters / totalCharacters),
  };
}
