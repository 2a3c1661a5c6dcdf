import type { OutgoingMail } from '../mail/index.js';

/**
 * The mails identity sends, in English and Hebrew in one message: the server does not know which
 * language the owner reads (the register page is in English, the app in Hebrew by default). The link
 * is the only thing to act on; it goes to a page of the app, which spends the token with a POST — so a
 * mail scanner that opens links does not use it up.
 */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function mail(
  to: string,
  subject: string,
  english: string[],
  hebrew: string[],
  link: string,
  action: { en: string; he: string },
): OutgoingMail {
  const text = [...english, '', link, '', '—', '', ...hebrew, '', link, ''].join('\n');
  const paragraphs = (lines: string[]) => lines.map((line) => `<p>${escape(line)}</p>`).join('');
  const button = (label: string) =>
    `<p><a href="${escape(link)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escape(label)}</a></p>`;
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">
<div lang="en" dir="ltr">${paragraphs(english)}${button(action.en)}</div>
<hr>
<div lang="he" dir="rtl" style="text-align:right">${paragraphs(hebrew)}${button(action.he)}</div>
<p style="color:#666;font-size:12px">${escape(link)}</p>
</body></html>`;
  return { to, subject, text, html };
}

export function verificationMail(to: string, link: string, validHours: number): OutgoingMail {
  return mail(
    to,
    'Verify your email address for Kesher · אימות כתובת האימייל שלכם בקשר',
    [
      'Welcome to Kesher!',
      `Please confirm that this is your email address by opening the link below. It works once, for ${validHours} hours.`,
      'If you did not create a Kesher account, you can ignore this email: nobody can join Google sign-in to an address that was not verified.',
    ],
    [
      'ברוכים הבאים לקשר!',
      `אנא אשרו שזו כתובת האימייל שלכם באמצעות הקישור שלמטה. הקישור פועל פעם אחת, במשך ${validHours} שעות.`,
      'אם לא יצרתם חשבון בקשר, אפשר להתעלם מהודעה זו.',
    ],
    link,
    { en: 'Verify my email', he: 'אימות האימייל שלי' },
  );
}

export function passwordResetMail(to: string, link: string, validMinutes: number): OutgoingMail {
  return mail(
    to,
    'Reset your Kesher password · איפוס הסיסמה שלכם בקשר',
    [
      'Someone (hopefully you) asked to reset the password of your Kesher account.',
      `Open the link below to choose a new one. It works once, for ${validMinutes} minutes; every session of the account will be signed out.`,
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ],
    [
      'מישהו (כנראה אתם) ביקש לאפס את הסיסמה של חשבון הקשר שלכם.',
      `פתחו את הקישור שלמטה כדי לבחור סיסמה חדשה. הקישור פועל פעם אחת, במשך ${validMinutes} דקות, וכל החיבורים לחשבון ינותקו.`,
      'אם לא ביקשתם זאת, התעלמו מהודעה זו: הסיסמה שלכם לא תשתנה.',
    ],
    link,
    { en: 'Choose a new password', he: 'בחירת סיסמה חדשה' },
  );
}
