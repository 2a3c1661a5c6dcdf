import { createCuratedMatcher, defaultCuratedTuning, type CuratedMatchTuning } from './curated-match.js';
import { curatedPairs, type CuratedPair } from './curated-pairs.js';

export interface CuratedEvalReport {
  pairs: number;
  paraphrases: number;
  nearMisses: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  threshold: number;
  /** The pairs judged wrongly, for tuning. */
  wrong: { curated: string; asked: string; same: boolean; confidence: number | null }[];
}

/** Each pair alone: does the visitor's question take the curated answer? */
export function evaluateCuratedMatching(
  pairs: readonly CuratedPair[] = curatedPairs,
  tuning: CuratedMatchTuning = defaultCuratedTuning,
): CuratedEvalReport {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const wrong: CuratedEvalReport['wrong'] = [];
  for (const pair of pairs) {
    const match = createCuratedMatcher([{ qaId: 'qa_eval', question: pair.curated, answer: '-' }], tuning)(pair.asked);
    if (match && pair.same) tp += 1;
    if (match && !pair.same) fp += 1;
    if (!match && pair.same) fn += 1;
    if (Boolean(match) !== pair.same) wrong.push({ ...pair, confidence: match?.confidence ?? null });
  }
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    pairs: pairs.length,
    paraphrases: pairs.filter((p) => p.same).length,
    nearMisses: pairs.filter((p) => !p.same).length,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    precision: round(tp + fp === 0 ? 1 : tp / (tp + fp)),
    recall: round(tp + fn === 0 ? 1 : tp / (tp + fn)),
    threshold: tuning.threshold,
    wrong,
  };
}
