import { describe, expect, it } from 'vitest';
import { isConnectionLost } from './connection-lost.js';

const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionLost', () => {
  it('takes ended sessions and cut sockets for lost connections', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08003', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE'])
      expect(isConnectionLost(coded(code)), code).toBe(true);
    expect(isConnectionLost(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isConnectionLost(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    expect(isConnectionLost(new AggregateError([coded('ECONNREFUSED')], 'connect failed'))).toBe(true);
    expect(isConnectionLost(new Error('wrapped', { cause: coded('57P01') }))).toBe(true);
  });

  it('leaves errors of the work itself alone', () => {
    for (const code of ['42P01', '23505', '40001', '57014'])
      expect(isConnectionLost(coded(code, 'relation does not exist')), code).toBe(false);
    expect(isConnectionLost(new Error('boom'))).toBe(false);
    expect(isConnectionLost('57P01')).toBe(false);
  });
});
