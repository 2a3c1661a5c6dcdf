import { createTransport } from 'nodemailer';
import type { Mailer } from './mail.port.js';

/**
 * Mail over SMTP with nodemailer: SMTP_URL says where and how (`smtp://user:pass@host:587`,
 * `smtps://…` for TLS from the start; STARTTLS is used when the server offers it). One pooled
 * connection set per process, so a burst of sign-ups does not open a connection each.
 */
export function createSmtpMailer(deps: { url: string; from: string }): Mailer {
  const transport = createTransport(
    deps.url.includes('pool=') ? deps.url : `${deps.url}${deps.url.includes('?') ? '&' : '?'}pool=true`,
  );
  const where = new URL(deps.url);
  return {
    describe: `${where.protocol}//${where.host}`,
    async send(mail) {
      await transport.sendMail({
        from: deps.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    async close() {
      transport.close();
    },
  };
}
