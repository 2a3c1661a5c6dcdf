import { searchTokens, termVariants } from '@kesher/contracts/rules/search-terms';

/**
 * How useful a crawled page is likely to be to the assistant, 0–1, with the reasons. Four features,
 * each 0–1, weighted: how close to the home page it is (depth), how many of the site's pages link to
 * it (inbound links — the site's own vote), how much text it has, and how many of the words of the
 * assistant's description and instructions it shares (Hebrew and English, through the same word rules
 * as the knowledge search). Without a description the keyword weight is shared out among the others.
 */
export type RelevanceFeatureName = 'depth' | 'inbound-links' | 'content-length' | 'keyword-overlap';

export interface RelevanceFeature {
  feature: RelevanceFeatureName;
  /** The feature's own score, 0–1. */
  value: number;
  weight: number;
  /** value × weight: its share of the total. */
  contribution: number;
  /** In words: "depth 1", "linked from 12 pages", "2,340 characters", "matches “cake”, “delivery”". */
  note: string;
}

export interface RelevanceScore {
  score: number;
  features: RelevanceFeature[];
  /** One line for the owner: the notes with their contributions. */
  explanation: string;
}

export interface RelevancePage {
  depth: number;
  inboundLinks: number;
  contentCharacters: number;
  title: string | null;
  headings: readonly string[];
  text: string;
}

/** The words of an assistant that pages are compared with, each with the forms it may take. */
export interface AssistantKeywords {
  /** Keyword → its variants (prefix-stripped Hebrew, stemmed English). */
  byVariant: ReadonlyMap<string, string>;
  keywords: readonly string[];
}

const WEIGHTS: Record<RelevanceFeatureName, number> = {
  depth: 0.2,
  'inbound-links': 0.2,
  'content-length': 0.2,
  'keyword-overlap': 0.4,
};
/** Text long enough to answer questions from; more does not make a page more relevant. */
const FULL_LENGTH = 1500;
const MAX_KEYWORDS = 30;
/** Words every assistant's instructions use; they say nothing about the business. */
const INSTRUCTION_WORDS = new Set([
  'assistant',
  'answer',
  'answers',
  'question',
  'questions',
  'customer',
  'customers',
  'client',
  'clients',
  'help',
  'user',
  'users',
  'always',
  'never',
  'friendly',
  'polite',
  'respond',
  'reply',
  'helpful',
  'professional',
  'short',
  'concise',
  'information',
  'website',
  'site',
  'page',
  'pages',
  'visitor',
  'visitors',
  'language',
  'hebrew',
  'english',
  'tone',
  'you',
  'your',
  'עוזר',
  'עוזרת',
  'לענות',
  'ענה',
  'עני',
  'תענה',
  'תעני',
  'שאלה',
  'שאלות',
  'לקוח',
  'לקוחות',
  'לעזור',
  'עזרה',
  'תמיד',
  'אף',
  'פעם',
  'אדיב',
  'אדיבה',
  'מקצועי',
  'מקצועית',
  'קצר',
  'קצרה',
  'תשובה',
  'תשובות',
  'מידע',
  'אתר',
  'גולשים',
  'גולש',
  'בעברית',
  'באנגלית',
]);

export function assistantKeywords(texts: readonly (string | null | undefined)[]): AssistantKeywords {
  const counts = new Map<string, { count: number; variants: string[] }>();
  for (const token of searchTokens(texts.filter(Boolean).join(' \n '))) {
    const variants = termVariants(token);
    const keyword = variants[0]?.term;
    if (
      !keyword ||
      INSTRUCTION_WORDS.has(token) ||
      INSTRUCTION_WORDS.has(keyword) ||
      /^\d+$/.test(keyword) ||
      keyword.length < 2
    )
      continue;
    if (/^[a-z]+$/.test(keyword) && keyword.length < 3) continue;
    const entry = counts.get(keyword) ?? { count: 0, variants: variants.map((variant) => variant.term) };
    entry.count++;
    counts.set(keyword, entry);
  }
  const keywords = [...counts.entries()].sort((a, b) => b[1].count - a[1].count).slice(0, MAX_KEYWORDS);
  const byVariant = new Map<string, string>();
  for (const [keyword, { variants }] of keywords)
    for (const variant of variants) if (!byVariant.has(variant)) byVariant.set(variant, keyword);
  return { byVariant, keywords: keywords.map(([keyword]) => keyword) };
}

export function scoreRelevance(
  page: RelevancePage,
  context: { keywords: AssistantKeywords; maxInboundLinks: number },
): RelevanceScore {
  const features: Array<Omit<RelevanceFeature, 'weight' | 'contribution'>> = [];
  const depth = Math.max(0, page.depth);
  features.push({
    feature: 'depth',
    value: Math.max(0.1, 1 - 0.2 * depth),
    note: depth === 0 ? 'the start page' : `depth ${depth}`,
  });
  const inbound = Math.max(0, page.inboundLinks);
  features.push({
    feature: 'inbound-links',
    value: context.maxInboundLinks > 0 ? Math.log1p(inbound) / Math.log1p(context.maxInboundLinks) : 0,
    note: `linked from ${inbound} page${inbound === 1 ? '' : 's'}`,
  });
  const characters = page.contentCharacters;
  features.push({
    feature: 'content-length',
    value: characters < 100 ? 0 : Math.min(1, characters / FULL_LENGTH),
    note: `${characters.toLocaleString('en-US')} characters`,
  });

  const hasKeywords = context.keywords.keywords.length > 0;
  if (hasKeywords) {
    const inTitle = matchedKeywords(`${page.title ?? ''} ${page.headings.join(' ')}`, context.keywords);
    const inText = matchedKeywords(page.text, context.keywords);
    const matched = new Set([...inTitle, ...inText]);
    const wanted = Math.min(context.keywords.keywords.length, 8);
    const value = Math.min(1, matched.size / wanted + 0.15 * inTitle.size);
    features.push({
      feature: 'keyword-overlap',
      value,
      note:
        matched.size === 0
          ? 'shares no words with the assistant'
          : `matches ${[...matched]
              .slice(0, 4)
              .map((word) => `“${word}”`)
              .join(', ')}`,
    });
  }

  const totalWeight = features.reduce((sum, feature) => sum + WEIGHTS[feature.feature], 0);
  const weighted: RelevanceFeature[] = features.map((feature) => {
    const weight = WEIGHTS[feature.feature] / totalWeight;
    const value = round(feature.value);
    return { ...feature, value, weight: round(weight), contribution: round(value * weight) };
  });
  const score = round(
    Math.min(
      1,
      features.reduce((sum, feature) => sum + round(feature.value) * (WEIGHTS[feature.feature] / totalWeight), 0),
    ),
  );
  return {
    score,
    features: weighted,
    explanation: weighted.map((feature) => `${feature.note} (+${feature.contribution.toFixed(2)})`).join(' · '),
  };
}

function matchedKeywords(text: string, keywords: AssistantKeywords): Set<string> {
  const matched = new Set<string>();
  for (const token of searchTokens(text)) {
    for (const variant of termVariants(token)) {
      const keyword = keywords.byVariant.get(variant.term);
      if (keyword) matched.add(keyword);
    }
  }
  return matched;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
