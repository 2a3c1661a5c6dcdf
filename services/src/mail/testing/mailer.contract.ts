import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailer } from '../mail.port.js';

export interface MailerUnderTest {
  mailer: Mailer;
  /** The messages that reached the other end (a mailbox, the outbox), as a mail client reads them. */
  received(): Promise<{ to: string[]; from: string; subject: string; text: string; html: string }[]>;
  teardown(): Promise<void>;
}

/**
 * What every mail adapter must do: the message reaches its one recipient from MAIL_FROM with its subject
 * (Hebrew too), a long link in its text arrives whole and clickable, and the HTML part arrives.
 */
export function mailerContract(
  name: string,
  setup: () => Promise<MailerUnderTest>,
  gate = { available: true } as { available: boolean; reason?: string },
) {
  describe.skipIf(!gate.available)(
    `Mailer contract: ${name}${gate.available ? '' : ` (not run: ${gate.reason})`}`,
    () => {
      let under: MailerUnderTest;
      beforeAll(async () => {
        under = await setup();
      });
      afterAll(async () => under?.teardown());

      it('delivers subject, text with a long link intact, and HTML to the one recipient', async () => {
        const link = `http://localhost:8000/reset-password?token=${'Ab9_-'.repeat(20)}`;
        await under.mailer.send({
          to: 'noa@example.com',
          subject: 'Reset your Kesher password · איפוס הסיסמה',
          text: `Hello,\n\nOpen this link:\n${link}\n\nשלום`,
          html: `<p>Hello</p><p><a href="${link}">Reset</a></p><p dir="rtl">שלום</p>`,
        });
        const mails = await under.received();
        const mail = mails.find((m) => m.to.includes('noa@example.com'));
        expect(mail).toBeDefined();
        expect(mail!.to).toEqual(['noa@example.com']);
        expect(mail!.from).toContain('kesher@example.com');
        expect(mail!.subject).toBe('Reset your Kesher password · איפוס הסיסמה');
        expect(mail!.text).toContain(link);
        expect(mail!.text).toContain('שלום');
        expect(mail!.html).toContain(`href="${link}"`);
      });

      it('keeps each message apart', async () => {
        await under.mailer.send({ to: 'a@example.com', subject: 'One', text: 'one', html: '<p>one</p>' });
        await under.mailer.send({ to: 'b@example.com', subject: 'Two', text: 'two', html: '<p>two</p>' });
        const mails = await under.received();
        expect(mails.find((m) => m.to.includes('a@example.com'))?.subject).toBe('One');
        expect(mails.find((m) => m.to.includes('b@example.com'))?.subject).toBe('Two');
      });
    },
  );
}
