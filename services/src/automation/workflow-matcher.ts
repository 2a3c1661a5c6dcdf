import { queryWords } from '@kesher/contracts/rules/search-terms';

/**
 * Which workflow a visitor's message fires: retrieval over the workflows' training phrases and trigger
 * conditions with the knowledge module's Hebrew and English word forms (contracts/rules/search-terms:
 * proclitics, plural and possessive suffixes, plene spelling, English endings), so "ההזמנות שלי" meets a
 * phrase with "הזמנה" and "booking" meets "booked".
 *
 * A phrase's score is the share of its words (weighted by how rare each word is among the owner's
 * workflows) that the message contains, blended with the share of the message those words cover:
 * the best-covered phrase wins, and a long message that merely mentions one common word does not. The
 * index is built once per configuration (inverted: term → phrase words), so matching a message costs a
 * few map lookups per word, not a pass over every phrase.
 */

export interface MatchableWorkflow {
  id: string;
  title: string;
  triggerCondition: string;
  trainingPhrases: readonly string[];
}

export interface WorkflowCandidate {
  workflowId: string;
  title: string;
  score: number;
  matchedPhrases: string[];
  matchedOn: 'phrase' | 'trigger';
}

export interface WorkflowMatch {
  fired: WorkflowCandidate | null;
  threshold: number;
  candidates: WorkflowCandidate[];
}

/** Measured on the labelled set (services/src/automation/testing/labelled-messages.ts, `make bench-automation`); see docs/automation.md. */
export const WORKFLOW_MATCH_THRESHOLD = 0.4;
/** Share of a phrase's score that comes from how much of the phrase the message contains (the rest: how much of the message the phrase explains). */
const PHRASE_WEIGHT = 0.8;

interface IndexedPhrase {
  workflow: number;
  text: string;
  onTrigger: boolean;
  /** Weight of each word of the phrase. */
  weights: number[];
  total: number;
}

export interface WorkflowIndex {
  match(message: string, options?: { threshold?: number; limit?: number }): WorkflowMatch;
  readonly size: number;
}

export function buildWorkflowIndex(workflows: readonly MatchableWorkflow[]): WorkflowIndex {
  const phrases: IndexedPhrase[] = [];
  /** term → postings (phrase index, word index). */
  const postings = new Map<string, { phrase: number; word: number }[]>();
  /** canonical word → the workflows whose phrases hold it (for rarity). */
  const workflowsOfWord = new Map<string, Set<number>>();
  const pending: { workflow: number; text: string; onTrigger: boolean; words: ReturnType<typeof queryWords> }[] = [];

  workflows.forEach((workflow, w) => {
    const texts = [...workflow.trainingPhrases.map((text) => ({ text, onTrigger: false })), { text: workflow.triggerCondition, onTrigger: true }];
    for (const { text, onTrigger } of texts) {
      const words = queryWords(text);
      if (words.length === 0) continue;
      pending.push({ workflow: w, text, onTrigger, words });
      for (const word of words) {
        let set = workflowsOfWord.get(word.word);
        if (!set) workflowsOfWord.set(word.word, (set = new Set()));
        set.add(w);
      }
    }
  });
  const n = Math.max(1, workflows.length);
  const rarity = (word: string) => Math.log(1 + n / (workflowsOfWord.get(word)?.size ?? 1));
  const maxRarity = Math.log(1 + n);

  for (const entry of pending) {
    const index = phrases.length;
    const weights = entry.words.map((word) => rarity(word.word));
    phrases.push({ workflow: entry.workflow, text: entry.text, onTrigger: entry.onTrigger, weights, total: weights.reduce((a, b) => a + b, 0) });
    entry.words.forEach((word, wordIndex) => {
      // A word's variants may repeat a term; each (phrase, word) is posted once per term.
      for (const term of new Set(word.variants.map((variant) => variant.term))) {
        let list = postings.get(term);
        if (!list) postings.set(term, (list = []));
        list.push({ phrase: index, word: wordIndex });
      }
    });
  }

  return {
    size: workflows.length,
    match(message, options = {}) {
      const threshold = options.threshold ?? WORKFLOW_MATCH_THRESHOLD;
      const words = queryWords(message);
      // phrase → matched word indexes; and which message words each phrase explains.
      const hits = new Map<number, { words: Set<number>; messageWords: Set<number> }>();
      const messageWeights = words.map((word) => (workflowsOfWord.has(word.word) ? rarity(word.word) : maxRarity));
      words.forEach((word, messageIndex) => {
        for (const variant of word.variants) {
          for (const posting of postings.get(variant.term) ?? []) {
            let hit = hits.get(posting.phrase);
            if (!hit) hits.set(posting.phrase, (hit = { words: new Set(), messageWords: new Set() }));
            hit.words.add(posting.word);
            hit.messageWords.add(messageIndex);
          }
        }
      });
      const messageTotal = messageWeights.reduce((a, b) => a + b, 0) || 1;
      const best = new Map<number, WorkflowCandidate>();
      for (const [phraseIndex, hit] of hits) {
        const phrase = phrases[phraseIndex]!;
        let covered = 0;
        for (const word of hit.words) covered += phrase.weights[word]!;
        let explained = 0;
        for (const word of hit.messageWords) explained += messageWeights[word]!;
        const score = PHRASE_WEIGHT * (covered / (phrase.total || 1)) + (1 - PHRASE_WEIGHT) * (explained / messageTotal);
        const workflow = workflows[phrase.workflow]!;
        const current = best.get(phrase.workflow);
        if (!current) {
          best.set(phrase.workflow, { workflowId: workflow.id, title: workflow.title, score, matchedPhrases: [phrase.text], matchedOn: phrase.onTrigger ? 'trigger' : 'phrase' });
          continue;
        }
        if (score >= threshold && !current.matchedPhrases.includes(phrase.text)) current.matchedPhrases.push(phrase.text);
        if (score > current.score) {
          current.score = score;
          current.matchedOn = phrase.onTrigger ? 'trigger' : 'phrase';
          current.matchedPhrases = [phrase.text, ...current.matchedPhrases.filter((text) => text !== phrase.text)];
        }
      }
      const candidates = [...best.values()]
        .map((candidate) => ({ ...candidate, score: Math.round(candidate.score * 1000) / 1000 }))
        .sort((a, b) => b.score - a.score || a.title.localeCompare(b.title))
        .slice(0, options.limit ?? 5);
      const top = candidates[0];
      return { fired: top && top.score >= threshold ? top : null, threshold, candidates };
    },
  };
}

export interface WorkflowOverlap {
  workflowId: string;
  workflowTitle: string;
  otherWorkflowId: string;
  otherWorkflowTitle: string;
  phrase: string;
  score: number;
  otherScore: number;
}

/**
 * Training phrases two workflows compete for: a phrase of one workflow that fires another one instead, or
 * scores within 0.1 of its own workflow on another. The owner sees which phrases to make more specific.
 */
export function findOverlaps(workflows: readonly MatchableWorkflow[], threshold = WORKFLOW_MATCH_THRESHOLD): WorkflowOverlap[] {
  const index = buildWorkflowIndex(workflows);
  const overlaps: WorkflowOverlap[] = [];
  const seen = new Set<string>();
  for (const workflow of workflows) {
    for (const phrase of workflow.trainingPhrases) {
      const { candidates } = index.match(phrase, { threshold, limit: 5 });
      const own = candidates.find((c) => c.workflowId === workflow.id)?.score ?? 0;
      for (const other of candidates) {
        if (other.workflowId === workflow.id || other.score < threshold) continue;
        if (other.score < own - 0.1) continue;
        const key = `${workflow.id}|${other.workflowId}|${phrase}`;
        if (seen.has(key)) continue;
        seen.add(key);
        overlaps.push({ workflowId: workflow.id, workflowTitle: workflow.title, otherWorkflowId: other.workflowId, otherWorkflowTitle: other.title, phrase, score: own, otherScore: other.score });
      }
    }
  }
  return overlaps;
}
