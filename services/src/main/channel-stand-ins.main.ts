import { startChannelStandIns, whatsappTextDelivery } from '../channels/testing/channel-stand-ins.js';

/**
 * Local stand-ins of the Telegram Bot API and Meta's Graph API (WhatsApp Cloud API, Instagram Messaging),
 * to try the channels by hand without the real services: start this, then `make start` with the printed
 * variables, connect the printed bot/number/account in /integrations, and write as a customer with the
 * printed curl lines. See docs/channels.md.
 */
const port = Number(process.env.CHANNEL_STAND_INS_PORT ?? 8790);
const standIns = await startChannelStandIns({ port });
const bot = standIns.addBot('kesher_demo_bot');
const whatsapp = standIns.addWhatsAppNumber({ phoneNumberId: '100200300', display: '+972 50-000-0000', name: 'Kesher Demo' });
const instagram = standIns.addInstagramAccount({ accountId: '17841400000000000', username: 'kesher.demo', followers: 1200 });
const appSecret = process.env.META_APP_SECRET ?? 'demo-meta-app-secret';

console.log(`channel stand-ins at ${standIns.origin}

Start Kesher with:
  TELEGRAM_API_URL=${standIns.urls.telegram} WHATSAPP_API_URL=${standIns.urls.whatsapp} INSTAGRAM_API_URL=${standIns.urls.instagram} META_APP_SECRET=${appSecret} make start

Telegram bot token:         ${bot.token}   (@kesher_demo_bot)
WhatsApp access token:      ${whatsapp.token}   phone number id 100200300
Instagram page token:       ${instagram.token}   account id 17841400000000000

A customer writes:
  curl -X POST ${standIns.origin}/simulate/telegram/${bot.token} -H 'content-type: application/json' -d '{"chat_id": 501, "text": "When are you open?"}'
  curl -X POST ${standIns.origin}/simulate/meta -H 'content-type: application/json' -d '{"webhook_url": "<the WhatsApp webhook URL shown in Kesher>", "app_secret": "${appSecret}", "payload": ${JSON.stringify(whatsappTextDelivery('100200300', '972501112233', 'wamid.demo1', 'When are you open?'))}}'
What Kesher sent back:
  curl ${standIns.origin}/simulate/sent`);

process.on('SIGINT', () => void standIns.close().then(() => process.exit(0)));
