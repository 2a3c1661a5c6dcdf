/** One message to one person: a plain-text body (what the links must survive in) and its HTML form. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends one message or throws. The sender address is the adapter's (MAIL_FROM), not the caller's.
 * Adapters: SMTP through nodemailer (smtp.mailer.ts) and the embedded default's outbox (outbox.mailer.ts).
 */
export type SendMail = (mail: OutgoingMail) => Promise<void>;

export interface Mailer {
  send: SendMail;
  /** Where the mail goes, for the startup log ("smtp://mail.example.com:587", "outbox /data/outbox"). */
  describe: string;
  close(): Promise<void>;
}
