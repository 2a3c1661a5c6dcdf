import { describe, expect, it } from 'vitest';
import { createRunGrants, GRANT_GRACE_MS } from './run-grants.js';

const secret = new TextEncoder().encode('a'.repeat(32));
const deadlineAt = new Date('2026-11-29T10:00:45.000Z');
const run = { threadId: 'thread_1', runId: 'run_1', deadlineAt };

describe('run stream grants', () => {
  it('opens the run it was issued for, until its deadline plus the grace, and nothing after', () => {
    let now = new Date('2026-11-29T10:00:00.000Z');
    const grants = createRunGrants({ secret, clock: () => now });
    const grant = grants.issue(run);
    expect(grants.verify(grant, 'thread_1', 'run_1')).toEqual(run);
    now = new Date(deadlineAt.getTime() + GRANT_GRACE_MS);
    expect(grants.verify(grant, 'thread_1', 'run_1')).toEqual(run);
    now = new Date(deadlineAt.getTime() + GRANT_GRACE_MS + 1);
    expect(grants.verify(grant, 'thread_1', 'run_1')).toBeUndefined();
  });

  it('opens no other run or thread, and nothing for a changed deadline, signature or key', () => {
    const clock = () => new Date('2026-11-29T10:00:00.000Z');
    const grants = createRunGrants({ secret, clock });
    const grant = grants.issue(run);
    expect(grants.verify(grant, 'thread_1', 'run_2')).toBeUndefined();
    expect(grants.verify(grant, 'thread_2', 'run_1')).toBeUndefined();
    const [deadline, signature] = grant.split('.') as [string, string];
    // A holder cannot stretch the grant: the deadline is signed.
    const later = (parseInt(deadline, 36) + 3_600_000).toString(36);
    expect(grants.verify(`${later}.${signature}`, 'thread_1', 'run_1')).toBeUndefined();
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    expect(grants.verify(`${deadline}.${flipped}`, 'thread_1', 'run_1')).toBeUndefined();
    const otherKey = createRunGrants({ secret: new TextEncoder().encode('b'.repeat(32)), clock });
    expect(otherKey.verify(grant, 'thread_1', 'run_1')).toBeUndefined();
    for (const junk of [
      '',
      '.',
      'x',
      `${deadline}.`,
      `${deadline}.${signature}x`,
      `-1.${signature}`,
      `${'z'.repeat(13)}.${signature}`,
    ])
      expect(grants.verify(junk, 'thread_1', 'run_1'), junk).toBeUndefined();
  });

  it('is honoured by another process holding the same secret (any replica opens it)', () => {
    const clock = () => new Date('2026-11-29T10:00:00.000Z');
    const grant = createRunGrants({ secret, clock }).issue(run);
    expect(createRunGrants({ secret, clock }).verify(grant, 'thread_1', 'run_1')).toEqual(run);
  });
});
