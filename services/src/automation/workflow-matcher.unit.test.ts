import { describe, expect, it } from 'vitest';
import { labelledMessages, labelledWorkflows } from './testing/labelled-messages.js';
import { createWorkMeter, PHRASE_UNITS, type WorkMeter } from './work-meter.js';
import {
  buildWorkflowIndex,
  findOverlaps,
  MATCH_BUDGET,
  MAX_OVERLAPS,
  OVERLAP_PHRASE_BUDGET,
  WORKFLOW_MATCH_THRESHOLD,
  type MatchableWorkflow,
} from './workflow-matcher.js';

/**
 * The overlap attack of issue 21 item 3: workflows of 50 training phrases of 300 characters, every phrase
 * drawn from one shared vocabulary, so every word of every phrase is behind many others.
 */
function attackWorkflows(count: number, vocabulary = 600): MatchableWorkflow[] {
  const words = Array.from({ length: vocabulary }, (_, i) => `term${i.toString(36)}q`);
  let state = 21;
  const random = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const phrase = () => {
    let text = '';
    while (text.length < 290) text += `${words[Math.floor(random() * words.length)]} `;
    return text.trim().slice(0, 300);
  };
  return Array.from({ length: count }, (_, i) => ({
    id: `wf-${i}`,
    title: `Workflow ${i}`,
    triggerCondition: phrase(),
    trainingPhrases: Array.from({ length: 50 }, phrase),
  }));
}

/** A meter that also records the most units done between two pauses (what one stretch of the loop holds). */
function recordingMeter() {
  const inner = createWorkMeter({ slice: 50_000, sliceMs: Number.POSITIVE_INFINITY });
  let sincePause = 0;
  let longest = 0;
  const meter: WorkMeter & { longest(): number } = {
    add(units) {
      inner.add(units);
      sincePause += units;
    },
    async pause() {
      longest = Math.max(longest, sincePause);
      sincePause = 0;
      await inner.pause();
    },
    get total() {
      return inner.total;
    },
    get pauses() {
      return inner.pauses;
    },
    longest: () => Math.max(longest, sincePause),
  };
  return meter;
}

describe('which workflow a message fires', async () => {
  const index = await buildWorkflowIndex(labelledWorkflows);

  it('gets the labelled set right (Hebrew and English, and messages that should fire nothing) at the measured threshold', () => {
    expect(labelledMessages.length).toBeGreaterThanOrEqual(60);
    const right = labelledMessages.filter((m) => (index.match(m.message).fired?.workflowId ?? null) === m.expected);
    expect(right.length / labelledMessages.length).toBeGreaterThanOrEqual(0.9);
    expect(labelledMessages.every((m) => index.match(m.message).complete)).toBe(true);
  });

  it('meets Hebrew phrases through prefixes, plurals and possessives', () => {
    const match = index.match('ומה עם ההזמנות שלי?');
    expect(match.fired?.workflowId).toBe('order-status');
    expect(match.fired?.matchedPhrases).toContain('איפה ההזמנה שלי');
    expect(index.match('לבטל את התורים').fired?.workflowId).toBe('cancel');
  });

  it('says why: score, the phrases matched, and whether a phrase or the trigger matched', () => {
    const match = index.match('I forgot my password');
    expect(match.fired).toMatchObject({ workflowId: 'password', matchedOn: 'phrase' });
    // The best phrase first, then every other text of the workflow that reaches the threshold.
    expect(match.fired!.matchedPhrases[0]).toBe('forgot my password');
    expect(match.fired!.matchedPhrases).toContain('reset password');
    expect(match.fired!.score).toBeGreaterThanOrEqual(WORKFLOW_MATCH_THRESHOLD);
    expect(match.candidates[0]).toEqual(match.fired);
  });

  it('fires nothing with no workflows, or for a message of stop words only', async () => {
    expect((await buildWorkflowIndex([])).match('where is my order').fired).toBeNull();
    expect(index.match('what is it?').fired).toBeNull();
  });

  it('warns when two workflows compete for a phrase', async () => {
    const report = await findOverlaps([
      { id: 'a', title: 'Book', triggerCondition: 'booking', trainingPhrases: ['book an appointment'] },
      {
        id: 'b',
        title: 'Appointments',
        triggerCondition: 'appointments',
        trainingPhrases: ['book an appointment today'],
      },
      { id: 'c', title: 'Refund', triggerCondition: 'refunds', trainingPhrases: ['money back'] },
    ]);
    expect(report.overlaps.map((o) => [o.workflowId, o.otherWorkflowId])).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(report).toMatchObject({ complete: true, checked: 3, phrases: 3 });
    const labelled = await findOverlaps(labelledWorkflows);
    expect(labelled.overlaps.length).toBeLessThan(5);
    // Within its budget the report is exact: the same as with no budget at all.
    expect((await findOverlaps(labelledWorkflows, { phraseBudget: Number.POSITIVE_INFINITY })).overlaps).toEqual(
      labelled.overlaps,
    );
    expect(labelled.complete).toBe(true);
  });
});

describe('an owner cannot make matching or the overlap report freeze the event loop (issue 21 item 3)', () => {
  it('reports overlaps with work that grows with the number of phrases, not its square', async () => {
    const small = await findOverlaps(attackWorkflows(12, 200), {
      totalBudget: Number.POSITIVE_INFINITY,
      maxOverlaps: Number.POSITIVE_INFINITY,
      deadlineMs: Number.POSITIVE_INFINITY,
    });
    const large = await findOverlaps(attackWorkflows(24, 200), {
      totalBudget: Number.POSITIVE_INFINITY,
      maxOverlaps: Number.POSITIVE_INFINITY,
      deadlineMs: Number.POSITIVE_INFINITY,
    });
    expect(large.checked).toBe(2 * small.checked);
    // Each phrase visits at most its budget of postings: twice the phrases, at most about twice the work…
    expect(large.work).toBeLessThanOrEqual(large.checked * OVERLAP_PHRASE_BUDGET);
    expect(large.work / small.work).toBeLessThan(2.3);
    expect(large.complete).toBe(false); // …and the report says its commonest words were left out.
    // Without the budget the same report is quadratic: the comparison counts what the budget saves.
    const unboundedSmall = await findOverlaps(attackWorkflows(12, 200), {
      phraseBudget: Number.POSITIVE_INFINITY,
      totalBudget: Number.POSITIVE_INFINITY,
      maxOverlaps: Number.POSITIVE_INFINITY,
      deadlineMs: Number.POSITIVE_INFINITY,
    });
    const unboundedLarge = await findOverlaps(attackWorkflows(24, 200), {
      phraseBudget: Number.POSITIVE_INFINITY,
      totalBudget: Number.POSITIVE_INFINITY,
      maxOverlaps: Number.POSITIVE_INFINITY,
      deadlineMs: Number.POSITIVE_INFINITY,
    });
    expect(unboundedLarge.work / unboundedSmall.work).toBeGreaterThan(3.5);
    expect(unboundedSmall.complete).toBe(true);
  }, 120_000);

  it('stops at its total budget, or at 200 overlaps, and answers what it found', async () => {
    const report = await findOverlaps(attackWorkflows(30), {
      totalBudget: 200_000,
      deadlineMs: Number.POSITIVE_INFINITY,
    });
    expect(report.complete).toBe(false);
    expect(report.checked).toBeLessThan(report.phrases);
    expect(report.work).toBeLessThan(200_000 + OVERLAP_PHRASE_BUDGET);
    // Twenty copies of one workflow: every phrase competes with nineteen others.
    const copies = Array.from({ length: 20 }, (_, i) => ({
      ...labelledWorkflows[0]!,
      id: `copy-${i}`,
      title: `Copy ${i}`,
    }));
    const crowded = await findOverlaps(copies, { deadlineMs: Number.POSITIVE_INFINITY });
    expect(crowded.complete).toBe(false);
    expect(crowded.overlaps.length).toBeGreaterThanOrEqual(MAX_OVERLAPS);
    expect(crowded.overlaps.length).toBeLessThan(MAX_OVERLAPS + 5);
  }, 60_000);

  it('yields to the event loop between slices while indexing and reporting the largest attack', async () => {
    const meter = recordingMeter();
    const report = await findOverlaps(attackWorkflows(101), { meter, deadlineMs: Number.POSITIVE_INFINITY });
    expect(report.phrases).toBe(101 * 50);
    expect(meter.pauses).toBeGreaterThan(10);
    // No stretch between two pauses is longer than a slice plus one phrase (its budget and its fixed cost).
    expect(meter.longest()).toBeLessThanOrEqual(50_000 + OVERLAP_PHRASE_BUDGET + PHRASE_UNITS);
  }, 120_000);

  it('matches a long message against the largest attack within the match budget', async () => {
    const attack = attackWorkflows(101, 40);
    const index = await buildWorkflowIndex(attack);
    expect(index.postings).toBeGreaterThan(MATCH_BUDGET);
    const match = index.match(
      attack
        .flatMap((w) => w.trainingPhrases)
        .slice(0, 7)
        .join(' ')
        .slice(0, 2_000),
    );
    expect(match.work).toBeLessThanOrEqual(MATCH_BUDGET);
    expect(match.complete).toBe(false);
  }, 60_000);
});
