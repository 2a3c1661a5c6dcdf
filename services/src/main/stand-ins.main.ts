import { createInterface } from 'node:readline';
import {
  instagramTextDelivery,
  startChannelStandIns,
  telegramTextUpdate,
  whatsappTextDelivery,
} from '../channels/testing/channel-stand-ins.js';
import { startGoogleStandIn } from '../drive/testing/google-stand-in.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { createProcessLog } from '../platform/process/process-log.js';

/**
 * `npm run stand-ins`: local stand-ins of Telegram, WhatsApp, Instagram and Google Drive, so the channels
 * and Drive import can be tried on `make start` without any account. It prints the settings to start
 * Kesher with and the demo credentials to paste on /integrations, then reads customer messages from the
 * terminal and prints what Kesher answers through each channel.
 */
const META_APP_SECRET = 'stand-in-meta-app-secret';
// The terminal conversation below is this tool's interface (plain lines); the log is for stopping and failures.
const log = createProcessLog('kesher-stand-ins', { stderr: true });

// A fixed port (CHANNEL_STAND_INS_PORT, 8790), so the settings printed for `make start` stay the same between runs.
const channels = await startChannelStandIns({ port: Number(process.env.CHANNEL_STAND_INS_PORT ?? 8790) });
const google = await startGoogleStandIn({
  files: [
    {
      id: 'demo-hours',
      name: 'Opening hours',
      mimeType: 'application/vnd.google-apps.document',
      content: 'We are open Sunday to Thursday from 8:00 to 18:00 and on Friday from 8:00 to 13:00.',
    },
    {
      id: 'demo-prices',
      name: 'Price list',
      mimeType: 'application/vnd.google-apps.spreadsheet',
      content: 'item,price (ILS)\nsourdough loaf,24\ncroissant,9\nbirthday cake,180\n',
    },
    {
      id: 'demo-faq',
      name: 'FAQ.md',
      mimeType: 'text/markdown',
      content: '# FAQ\nWe deliver in the city on Tuesdays and Fridays. Orders by phone: 03-555-0100.',
    },
  ],
});
const bot = channels.addBot('kesher_demo_bot');
const whatsapp = channels.addWhatsAppNumber({
  phoneNumberId: '100200300',
  display: '+972 3-555-0100',
  name: 'Demo Bakery',
});
const instagram = channels.addInstagramAccount({ accountId: '1784140000', username: 'demo.bakery', followers: 1200 });

const settings = {
  TELEGRAM_API_URL: channels.urls.telegram,
  WHATSAPP_API_URL: channels.urls.whatsapp,
  INSTAGRAM_API_URL: channels.urls.instagram,
  META_APP_SECRET,
  GOOGLE_CLIENT_ID: google.clientId,
  GOOGLE_CLIENT_SECRET: google.clientSecret,
  GOOGLE_AUTHORIZE_URL: `${google.url}/o/oauth2/v2/auth`,
  GOOGLE_OAUTH_URL: google.url,
  GOOGLE_DRIVE_API_URL: google.url,
};
console.log('Stand-ins are running. Start Kesher with:\n');
console.log(
  `  ${Object.entries(settings)
    .map(([key, value]) => `${key}=${value}`)
    .join(' \\\n  ')} \\\n  make start\n`,
);
console.log('On /integrations (a paid plan: pay on the test page with 4580458045804580):');
console.log(`  Telegram bot token:           ${bot.token}`);
console.log(`  WhatsApp access token:        ${whatsapp.token}   phone number ID: 100200300`);
console.log(`  Instagram page access token:  ${instagram.token}   account ID: 1784140000`);
console.log('Google Drive: Manage Files → Connect Google Drive (the consent screen agrees at once).\n');
console.log('Then type a customer message:  tg <text> | wa <text> | ig <text>');
console.log(
  `(or from another terminal: curl -X POST ${channels.origin}/simulate/telegram/${bot.token} -H 'content-type: application/json' -d '{"chat_id": 501, "text": "When are you open?"}'`,
);
console.log(` and see what Kesher sent: curl ${channels.origin}/simulate/sent)`);
console.log('(WhatsApp and Instagram first need the webhook URL from Configure:  wa-hook <url> | ig-hook <url>)\n');

const hooks: { whatsapp?: string; instagram?: string } = {};
let shown = 0;
let counter = 0;
setInterval(() => {
  for (; shown < channels.sent.length; shown++) {
    const message = channels.sent[shown]!;
    console.log(`\n[${message.channel} → ${message.to}] ${message.text}\n> `);
  }
}, 200).unref();

async function handle(line: string) {
  const [command, ...rest] = line.trim().split(' ');
  const text = rest.join(' ').trim();
  counter += 1;
  if (command === 'wa-hook' || command === 'ig-hook') {
    hooks[command === 'wa-hook' ? 'whatsapp' : 'instagram'] = text;
    return console.log('webhook noted');
  }
  if (!text) return console.log('usage: tg <text> | wa <text> | ig <text> | wa-hook <url> | ig-hook <url>');
  if (command === 'tg') {
    const response = await channels.telegramUpdate(
      bot.token,
      telegramTextUpdate(Date.now() % 1e9, 4242, text, 'Demo customer'),
    );
    return console.log(`Telegram delivered the update: ${response.status}`);
  }
  if (command === 'wa' || command === 'ig') {
    const url = command === 'wa' ? hooks.whatsapp : hooks.instagram;
    if (!url) return console.log(`first: ${command}-hook <the webhook URL shown on /integrations → Configure>`);
    const body =
      command === 'wa'
        ? whatsappTextDelivery('100200300', '972500000001', `wamid.demo${counter}${Date.now()}`, text)
        : instagramTextDelivery('1784140000', '9000001', `mid.demo${counter}${Date.now()}`, text);
    const response = await channels.metaDelivery(url, body, META_APP_SECRET);
    return console.log(`Meta delivered the message: ${response.status}`);
  }
  console.log('unknown command');
}

const input = createInterface({ input: process.stdin, output: process.stdout, prompt: '> ' });
input.prompt();
input.on(
  'line',
  (line) =>
    void handle(line)
      .catch((error: unknown) => console.log(`failed: ${(error as Error).message}`))
      .finally(() => input.prompt()),
);
const lifecycle = closeOnSignal(
  async () => {
    await Promise.all([channels.close(), google.close()]);
  },
  { log, deadlineMs: Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000) },
);
// End of input (Ctrl-D) stops the stand-ins as Ctrl-C does.
input.on('close', () => void lifecycle.shutdown('end of input'));
