import { join } from 'node:path';
import type { Config } from '../platform/config/config.js';
import type { Mailer } from './mail.port.js';
import { createOutboxMailer } from './outbox.mailer.js';
import { createSmtpMailer } from './smtp.mailer.js';

export type { Mailer, OutgoingMail, SendMail } from './mail.port.js';
export type { OutboxMessage } from './outbox.mailer.js';

/** SMTP when SMTP_URL is set; otherwise the outbox under DATA_DIR, whose links the log prints. */
export function createMailer(
  config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM' | 'DATA_DIR'>,
  log: (line: string) => void = (line) => console.log(line),
): Mailer {
  if (config.SMTP_URL) return createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM });
  return createOutboxMailer({ dir: join(config.DATA_DIR, 'outbox'), from: config.MAIL_FROM, log });
}
