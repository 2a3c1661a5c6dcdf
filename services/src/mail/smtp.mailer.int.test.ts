import { startSmtpStandIn, type SmtpStandIn } from '../testing/smtp-stand-in.js';
import { createSmtpMailer } from './smtp.mailer.js';
import { mailerContract } from './testing/mailer.contract.js';

// Over a real SMTP conversation with a local server (smtp-server), parsed back by mailparser.
mailerContract('SMTP (nodemailer) to a local SMTP server', async () => {
  const smtp: SmtpStandIn = await startSmtpStandIn();
  const mailer = createSmtpMailer({ url: smtp.url, from: 'Kesher <kesher@example.com>' });
  return {
    mailer,
    received: async () => smtp.received,
    teardown: async () => {
      await mailer.close();
      await smtp.close();
    },
  };
});
