import { describe, expect, it } from 'vitest';
import { whileServerBusy } from './test-database.js';

const refusal = (code: string) => Object.assign(new Error(`refused (${code})`), { code });

describe('the Postgres gate on a busy server', () => {
  const noSleep = async () => {};

  it('waits out "too many clients" and "starting up" until a connection is taken', async () => {
    const answers = [refusal('53300'), refusal('57P03'), refusal('53300')];
    let tries = 0;
    await whileServerBusy(
      async () => {
        tries++;
        const next = answers.shift();
        if (next) throw next;
      },
      { sleep: noSleep },
    );
    expect(tries).toBe(4);
  });

  it('fails at once on anything else, and a full server past the deadline', async () => {
    let tries = 0;
    const refused = whileServerBusy(
      async () => {
        tries++;
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      },
      { sleep: noSleep },
    );
    await expect(refused).rejects.toThrow('ECONNREFUSED');
    expect(tries).toBe(1);
    await expect(
      whileServerBusy(
        async () => {
          throw refusal('53300');
        },
        { sleep: noSleep, deadlineMs: 2_000, pauseMs: 500 },
      ),
    ).rejects.toThrow('53300');
  });
});
