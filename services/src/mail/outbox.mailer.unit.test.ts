import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOutboxMailer, type OutboxMessage } from './outbox.mailer.js';
import { mailerContract } from './testing/mailer.contract.js';

const read = (dir: string) =>
  readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as OutboxMessage);

mailerContract('the outbox under DATA_DIR', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kesher-outbox-'));
  const mailer = createOutboxMailer({ dir: join(dir, 'outbox'), from: 'Kesher <kesher@example.com>', log: () => {} });
  return {
    mailer,
    received: async () => read(join(dir, 'outbox')).map((m) => ({ ...m, to: [m.to] })),
    teardown: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

describe('outbox mailer', () => {
  it('prints where each message is kept and its links, so make start needs no mail server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kesher-outbox-'));
    const lines: string[] = [];
    try {
      const mailer = createOutboxMailer({ dir, from: 'kesher@example.com', log: (line) => lines.push(line) });
      await mailer.send({
        to: 'dana@example.com',
        subject: 'Verify',
        text: 'Open http://localhost:8000/verify-email?token=abc to verify.',
        html: '',
      });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('dana@example.com');
      expect(lines[0]).toContain('\n  http://localhost:8000/verify-email?token=abc');
      expect(lines[0]).toContain(join(dir, readdirSync(dir)[0]!));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
