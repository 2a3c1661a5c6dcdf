import { describe, expect, it } from 'vitest';
import { labelledMessages, labelledWorkflows } from './testing/labelled-messages.js';
import { buildWorkflowIndex, findOverlaps, WORKFLOW_MATCH_THRESHOLD } from './workflow-matcher.js';

describe('which workflow a message fires', () => {
  const index = buildWorkflowIndex(labelledWorkflows);

  it('gets the labelled set right (Hebrew and English, and messages that should fire nothing) at the measured threshold', () => {
    expect(labelledMessages.length).toBeGreaterThanOrEqual(60);
    const right = labelledMessages.filter((m) => (index.match(m.message).fired?.workflowId ?? null) === m.expected);
    expect(right.length / labelledMessages.length).toBeGreaterThanOrEqual(0.9);
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

  it('fires nothing with no workflows, or for a message of stop words only', () => {
    expect(buildWorkflowIndex([]).match('where is my order').fired).toBeNull();
    expect(index.match('what is it?').fired).toBeNull();
  });

  it('warns when two workflows compete for a phrase', () => {
    const overlaps = findOverlaps([
      { id: 'a', title: 'Book', triggerCondition: 'booking', trainingPhrases: ['book an appointment'] },
      { id: 'b', title: 'Appointments', triggerCondition: 'appointments', trainingPhrases: ['book an appointment today'] },
      { id: 'c', title: 'Refund', triggerCondition: 'refunds', trainingPhrases: ['money back'] },
    ]);
    expect(overlaps.map((o) => [o.workflowId, o.otherWorkflowId])).toEqual([['a', 'b'], ['b', 'a']]);
    expect(findOverlaps(labelledWorkflows).length).toBeLessThan(5);
  });
});
