import { describe, expect, it } from 'vitest';
import { createOperatorCheck } from './operators.js';

describe('who is an operator', () => {
  const isOperator = createOperatorCheck({
    emails: ' Ops@Example.com , second@example.com',
    accountIds: 'acc-named, acc-other',
  });

  it('is an account whose listed address it has verified', () => {
    expect(isOperator({ id: 'acc-1', email: 'ops@example.com', emailVerified: true })).toBe(true);
    expect(isOperator({ id: 'acc-1', email: 'OPS@example.com ', emailVerified: true })).toBe(true);
  });

  it('is not whoever registered a listed address without verifying it (first come would be operator)', () => {
    expect(isOperator({ id: 'acc-1', email: 'ops@example.com', emailVerified: false })).toBe(false);
    expect(isOperator({ id: 'acc-1', email: 'ops@example.com' })).toBe(false);
  });

  it('is an account named by id, verified or not', () => {
    expect(isOperator({ id: 'acc-named', email: 'anyone@example.com', emailVerified: false })).toBe(true);
    expect(isOperator({ id: 'acc-unknown', email: 'anyone@example.com', emailVerified: true })).toBe(false);
  });

  it('is nobody when nothing is set', () => {
    expect(createOperatorCheck({})({ id: '', email: '', emailVerified: true })).toBe(false);
  });
});
