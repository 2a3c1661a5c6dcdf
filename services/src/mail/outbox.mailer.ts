import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Mailer, OutgoingMail } from './mail.port.js';

/** What the outbox keeps of each message: one JSON file, named so that a listing sorts by time. */
export interface OutboxMessage extends OutgoingMail {
  from: string;
  date: string;
}

/**
 * The embedded default's mail, with no SMTP server set up: each message is written to DATA_DIR/outbox
 * as JSON and its links are printed in the log, so `make start` can verify an address or reset a
 * password with no setup. Nothing leaves the machine.
 */
export function createOutboxMailer(deps: {
  dir: string;
  from: string;
  log: (line: string) => void;
  clock?: () => Date;
}): Mailer {
  const dir = resolve(deps.dir);
  const clock = deps.clock ?? (() => new Date());
  return {
    describe: `outbox ${dir}`,
    async send(mail) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const date = clock();
      const message: OutboxMessage = { from: deps.from, date: date.toISOString(), ...mail };
      const name = `${date.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.json`;
      // Written aside and renamed: whoever reads the outbox never sees half a message.
      await writeFile(join(dir, `${name}.part`), `${JSON.stringify(message, null, 2)}\n`, { mode: 0o600 });
      await rename(join(dir, `${name}.part`), join(dir, name));
      const links = new Set(mail.text.match(/https?:\/\/\S+/g) ?? []);
      deps.log(
        `mail to ${mail.to} (${mail.subject}) kept in ${join(dir, name)}${[...links].map((link) => `\n  ${link}`).join('')}`,
      );
    },
    async close() {},
  };
}
