import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { waitUntil } from './processes.js';

/** One message as a mail client would read it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/**
 * A real SMTP server on 127.0.0.1 (smtp-server, a random port) that keeps what it receives, parsed with
 * mailparser: tests send through the product's own SMTP adapter and read the mail the way a mailbox
 * would. It accepts any sender and recipient, no TLS and no login, like a developer's mail catcher.
 */
export async function startSmtpStandIn() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const addresses = (value: typeof mail.to) =>
            (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) =>
              group.value.map((a) => a.address ?? ''),
            );
          received.push({
            from: mail.from?.text ?? '',
            to: addresses(mail.to),
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const mailsTo = (address: string) => received.filter((mail) => mail.to.includes(address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    mailsTo,
    /** Waits for the `count`-th message to `address` (1 = the first) and returns it. */
    async waitForMail(address: string, count = 1, timeoutMs = 20_000): Promise<ReceivedMail> {
      return waitUntil(() => mailsTo(address)[count - 1], {
        timeoutMs,
        what: `mail #${count} to ${address}`,
      }) as Promise<ReceivedMail>;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpStandIn = Awaited<ReturnType<typeof startSmtpStandIn>>;

/** The first link in a mail's text that starts with `prefix` (e.g. `http://localhost:8000/reset-password`). */
export function linkIn(mail: { text: string }, prefix: string): URL {
  const found = mail.text.match(/https?:\/\/\S+/g)?.find((link) => link.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in:\n${mail.text}`);
  return new URL(found);
}
