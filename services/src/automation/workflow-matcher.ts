import { queryWords } from '@kesher/contracts/rules/search-terms';
import { createWorkMeter, PHRASE_UNITS, WORD_UNITS, type WorkMeter } from './work-meter.js';

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
 * few array reads per posting of its words, not a pass over every phrase.
 *
 * Every match has a budget of postings it may visit. An owner controls the phrases, and 25,000 phrases
 * made of the same twenty words put every phrase behind every term: without a cap one message costs a
 * pass over the whole index, and the overlap report (one match per phrase) costs the square of it — 31 s
 * of one event loop for 101 workflows × 50 phrases × 300 characters. A message's words are scanned from
 * the rarest (shortest postings) to the commonest, and the words that no longer fit in the budget are
 * skipped: the words that tell workflows apart always count, the answer says it is `complete: false`,
 * and the work of a match is bounded whatever the owner saved. Real configurations stay far below the
 * budget and are matched exactly.
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
  /** False when some of the message's commonest words were skipped to stay within the budget. */
  complete: boolean;
  /** Postings visited: the work this match did (what the budget counts). */
  work: number;
}

export interface MatchOptions {
  threshold?: number;
  limit?: number;
  /** Postings a match may visit (default MATCH_BUDGET). */
  budget?: number;
}

/** Measured on the labelled set (services/src/automation/testing/labelled-messages.ts, `make bench-automation`); see docs/automation.md. */
export const WORKFLOW_MATCH_THRESHOLD = 0.4;
/** Share of a phrase's score that comes from how much of the phrase the message contains (the rest: how much of the message the phrase explains). */
const PHRASE_WEIGHT = 0.8;
/**
 * Postings one visitor message (or the tester's) may visit: a few milliseconds of work, which a match
 * does in one go (the ai-runner matches inside a run). The benchmark's 200 workflows × 10 phrases visit
 * at most a few hundred; the largest configuration the limits allow (500 workflows × 50 phrases of 300
 * characters) holds about 2 million.
 */
export const MATCH_BUDGET = 50_000;

export interface WorkflowIndex {
  match(message: string, options?: MatchOptions): WorkflowMatch;
  readonly size: number;
  /** Postings held (every searchable form of every word of every phrase): the index's size in work. */
  readonly postings: number;
}

interface Phrase {
  workflow: number;
  text: string;
  onTrigger: boolean;
  /** Sum of the weights of its words. */
  total: number;
}

/**
 * Builds the index of an owner's workflows. It yields to the event loop between slices of the work
 * (`meter`), so indexing the largest configuration never holds the loop for long.
 */
export async function buildWorkflowIndex(
  workflows: readonly MatchableWorkflow[],
  meter: WorkMeter = createWorkMeter(),
): Promise<WorkflowIndex> {
  const phrases: Phrase[] = [];
  /** Per phrase word (numbered across all phrases): its phrase, and its canonical form until weighed. */
  const wordPhraseList: number[] = [];
  const wordCanonical: string[] = [];
  /** term → the phrase words it reaches (each phrase word once per term). */
  const postings = new Map<string, number[]>();
  /** canonical word → how many workflows hold it (for rarity). */
  const workflowsOfWord = new Map<string, number>();
  let postingCount = 0;

  for (let w = 0; w < workflows.length; w++) {
    const workflow = workflows[w]!;
    const texts = [
      ...workflow.trainingPhrases.map((text) => ({ text, onTrigger: false })),
      { text: workflow.triggerCondition, onTrigger: true },
    ];
    const wordsOfWorkflow = new Set<string>();
    for (const { text, onTrigger } of texts) {
      const words = queryWords(text);
      meter.add(words.length * WORD_UNITS);
      if (words.length === 0) continue;
      const phrase = phrases.length;
      phrases.push({ workflow: w, text, onTrigger, total: 0 });
      for (const word of words) {
        const id = wordPhraseList.length;
        wordPhraseList.push(phrase);
        wordCanonical.push(word.word);
        wordsOfWorkflow.add(word.word);
        // A word's variants may repeat a term; each (phrase word, term) is posted once.
        for (const term of new Set(word.variants.map((variant) => variant.term))) {
          let list = postings.get(term);
          if (!list) postings.set(term, (list = []));
          list.push(id);
          postingCount++;
        }
      }
      await meter.pause();
    }
    for (const word of wordsOfWorkflow) workflowsOfWord.set(word, (workflowsOfWord.get(word) ?? 0) + 1);
  }

  const wordPhrase = Int32Array.from(wordPhraseList);
  wordPhraseList.length = 0;
  const n = Math.max(1, workflows.length);
  const rarity = (word: string) => Math.log(1 + n / (workflowsOfWord.get(word) ?? 1));
  const maxRarity = Math.log(1 + n);
  const wordWeight = new Float64Array(wordPhrase.length);
  for (let id = 0; id < wordPhrase.length; id++) {
    wordWeight[id] = rarity(wordCanonical[id]!);
    phrases[wordPhrase[id]!]!.total += wordWeight[id]!;
    meter.add(1);
    if (id % 1024 === 0) await meter.pause();
  }
  wordCanonical.length = 0;

  // Scratch space of a match, reused by the next (a match runs to its end without yielding). Stamps say
  // "already seen in this match / for this message word" without clearing arrays between matches.
  const phraseStamp = new Int32Array(phrases.length);
  const phraseMessageStamp = new Int32Array(phrases.length);
  const wordStamp = new Int32Array(wordPhrase.length);
  const covered = new Float64Array(phrases.length);
  const explained = new Float64Array(phrases.length);
  const touched = new Int32Array(phrases.length);
  const workflowStamp = new Int32Array(workflows.length);
  const bestScore = new Float64Array(workflows.length);
  const bestPhrase = new Int32Array(workflows.length);
  let stamp = 0;
  const nextStamp = () => ++stamp;

  return {
    size: workflows.length,
    postings: postingCount,
    match(message, options = {}) {
      const threshold = options.threshold ?? WORKFLOW_MATCH_THRESHOLD;
      const budget = options.budget ?? MATCH_BUDGET;
      const words = queryWords(message).map((word) => {
        const lists = [...new Set(word.variants.map((variant) => variant.term))].flatMap((term) =>
          postings.has(term) ? [postings.get(term)!] : [],
        );
        return {
          weight: workflowsOfWord.has(word.word) ? rarity(word.word) : maxRarity,
          lists,
          cost: lists.reduce((sum, list) => sum + list.length, 0),
        };
      });
      const messageTotal = words.reduce((sum, word) => sum + word.weight, 0) || 1;
      // The rarest words first: when the budget runs out, what is skipped is what many phrases share.
      const order = words.map((_, i) => i).sort((a, b) => words[a]!.cost - words[b]!.cost);

      if (stamp > 2 ** 30) {
        phraseStamp.fill(0);
        phraseMessageStamp.fill(0);
        wordStamp.fill(0);
        workflowStamp.fill(0);
        stamp = 0;
      }
      const query = nextStamp();
      let touchedCount = 0;
      let work = 0;
      let complete = true;
      for (const messageIndex of order) {
        const word = words[messageIndex]!;
        if (word.cost === 0) continue;
        if (work + word.cost > budget) {
          complete = false;
          break;
        }
        work += word.cost;
        const messageStamp = nextStamp();
        for (const list of word.lists) {
          for (let i = 0; i < list.length; i++) {
            const id = list[i]!;
            const phrase = wordPhrase[id]!;
            if (phraseStamp[phrase] !== query) {
              phraseStamp[phrase] = query;
              covered[phrase] = 0;
              explained[phrase] = 0;
              touched[touchedCount++] = phrase;
            }
            // Each phrase word counts once per match, each message word once per phrase.
            if (wordStamp[id] !== query) {
              wordStamp[id] = query;
              covered[phrase] = covered[phrase]! + wordWeight[id]!;
            }
            if (phraseMessageStamp[phrase] !== messageStamp) {
              phraseMessageStamp[phrase] = messageStamp;
              explained[phrase] = explained[phrase]! + word.weight;
            }
          }
        }
      }

      // Per workflow: its best phrase (the first on a tie), then its other phrases at or above the threshold, in their order.
      const reached: number[] = [];
      const above: number[] = [];
      for (let t = 0; t < touchedCount; t++) {
        const phraseIndex = touched[t]!;
        const phrase = phrases[phraseIndex]!;
        const score =
          PHRASE_WEIGHT * (covered[phraseIndex]! / (phrase.total || 1)) +
          (1 - PHRASE_WEIGHT) * (explained[phraseIndex]! / messageTotal);
        const w = phrase.workflow;
        if (score >= threshold) above.push(phraseIndex);
        if (workflowStamp[w] !== query) {
          workflowStamp[w] = query;
          reached.push(w);
        } else if (score < bestScore[w]! || (score === bestScore[w] && phraseIndex > bestPhrase[w]!)) continue;
        bestScore[w] = score;
        bestPhrase[w] = phraseIndex;
      }
      above.sort((a, b) => a - b);
      const rounded = (w: number) => Math.round(bestScore[w]! * 1000) / 1000;
      reached.sort((a, b) => rounded(b) - rounded(a) || workflows[a]!.title.localeCompare(workflows[b]!.title));
      const top = reached.slice(0, options.limit ?? 5).map((w): WorkflowCandidate => {
        const workflow = workflows[w]!;
        const best = phrases[bestPhrase[w]!]!;
        const texts = [best.text, ...above.filter((p) => phrases[p]!.workflow === w).map((p) => phrases[p]!.text)];
        return {
          workflowId: workflow.id,
          title: workflow.title,
          score: rounded(w),
          matchedPhrases: [...new Set(texts)],
          matchedOn: best.onTrigger ? 'trigger' : 'phrase',
        };
      });
      return { fired: top[0] && top[0].score >= threshold ? top[0] : null, threshold, candidates: top, complete, work };
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

export interface OverlapReport {
  overlaps: WorkflowOverlap[];
  /** False when a phrase was compared within its budget only, or the report stopped at its total budget. */
  complete: boolean;
  /** Phrases compared, out of `phrases`. */
  checked: number;
  phrases: number;
  /** Postings visited in all (the index's own building aside). */
  work: number;
}

/**
 * Postings one phrase of the overlap report may visit. A phrase is at most 300 characters (about 50
 * words): among real workflows its words reach a few hundred postings, and the report stays exact.
 */
export const OVERLAP_PHRASE_BUDGET = 2_000;
/** Postings the whole report may visit: about a second of work (in slices) on a busy 2-core machine (`make bench-automation`). */
export const OVERLAP_TOTAL_BUDGET = 2_000_000;
/** Overlaps reported at most: the page shows the first few, and a list of thousands is megabytes to send and nothing to act on. */
export const MAX_OVERLAPS = 200;
/** And the report's time: on a machine too busy for the budget, it answers what it has by then. */
export const OVERLAP_DEADLINE_MS = 2_500;

/**
 * Training phrases two workflows compete for: a phrase of one workflow that fires another one instead, or
 * scores within 0.1 of its own workflow on another. The owner sees which phrases to make more specific.
 * Each phrase is one match with a small budget, so the report grows with the number of phrases, not its
 * square; it yields between slices and stops at a total budget, answering what it found with
 * `complete: false`.
 */
export async function findOverlaps(
  workflows: readonly MatchableWorkflow[],
  options: {
    threshold?: number;
    phraseBudget?: number;
    totalBudget?: number;
    maxOverlaps?: number;
    deadlineMs?: number;
    meter?: WorkMeter;
    index?: WorkflowIndex;
  } = {},
): Promise<OverlapReport> {
  const threshold = options.threshold ?? WORKFLOW_MATCH_THRESHOLD;
  const deadline = performance.now() + (options.deadlineMs ?? OVERLAP_DEADLINE_MS);
  const meter = options.meter ?? createWorkMeter();
  const totalBudget = options.totalBudget ?? OVERLAP_TOTAL_BUDGET;
  const index = options.index ?? (await buildWorkflowIndex(workflows, meter));
  const report: OverlapReport = {
    overlaps: [],
    complete: true,
    checked: 0,
    phrases: workflows.reduce((sum, w) => sum + w.trainingPhrases.length, 0),
    work: 0,
  };
  const seen = new Set<string>();
  for (const workflow of workflows) {
    for (const phrase of workflow.trainingPhrases) {
      if (
        report.work >= totalBudget ||
        report.overlaps.length >= (options.maxOverlaps ?? MAX_OVERLAPS) ||
        performance.now() > deadline
      ) {
        report.complete = false;
        return report;
      }
      const { candidates, complete, work } = index.match(phrase, {
        threshold,
        limit: 5,
        budget: options.phraseBudget ?? OVERLAP_PHRASE_BUDGET,
      });
      report.work += work;
      report.checked++;
      if (!complete) report.complete = false;
      meter.add(work + PHRASE_UNITS);
      const own = candidates.find((c) => c.workflowId === workflow.id)?.score ?? 0;
      for (const other of candidates) {
        if (other.workflowId === workflow.id || other.score < threshold) continue;
        if (other.score < own - 0.1) continue;
        const key = `${workflow.id}|${other.workflowId}|${phrase}`;
        if (seen.has(key)) continue;
        seen.add(key);
        report.overlaps.push({
          workflowId: workflow.id,
          workflowTitle: workflow.title,
          otherWorkflowId: other.workflowId,
          otherWorkflowTitle: other.title,
          phrase,
          score: own,
          otherScore: other.score,
        });
      }
      await meter.pause();
    }
  }
  return report;
}
