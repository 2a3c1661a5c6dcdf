/**
 * The texts that used to be literals at their throw sites (sign-in, the thread and file deciders, billing,
 * the plan gates, the crawl decider): catalogues like the others, so each has a code (`signIn.invalidCredentials`,
 * error-codes.ts) and the client translates it by that code. The words are the ones the server always said:
 * the spec's `detail` does not change. No zod here: the client's visitor build may load this module.
 */

/** Signing in (POST /auth/jwt/login, /auth/google). */
export const signInMessages = {
  invalidCredentials: 'Invalid email or password. Please check your credentials.',
  tooManyAttempts: 'Too many failed login attempts. Please try again later.',
  googleNotConfigured: 'Google sign-in is not configured on this server. Please sign in with e-mail and password.',
  googleFailed: 'Google sign-in failed: the token could not be verified. Please try again.',
} as const;

/** The password rules, each a validation item of registration and reset (auth.dto.ts passwordRules). */
export const passwordMessages = {
  tooShort: 'Password must be at least 10 characters long',
  noUppercase: 'Password must contain at least one uppercase letter',
  noLowercase: 'Password must contain at least one lowercase letter',
  noNumber: 'Password must contain at least one number',
  noSpecial: 'Password must contain at least one special character',
  tooLong: 'Password is too long',
  required: 'Password is required',
} as const;

/** A conversation's own refusals (the thread decider, the chat and automation history). */
export const threadMessages = {
  exists: 'This conversation already exists',
  messageNotFound: 'Message not found.',
  invalidMessageId: 'Invalid message ID',
  /** The automation history of a conversation the owner does not have. */
  notFound: 'Thread not found',
} as const;

/** A knowledge file's refusals (the file decider and the upload). */
export const knowledgeFileMessages = {
  notFound: 'File not found',
  exists: 'This file was already uploaded',
  empty: 'The file is empty.',
  invalidId: 'Invalid file ID',
} as const;

/** The crawl decider's refusals. */
export const crawlMessages = {
  alreadyRequested: 'This crawl was already requested.',
  previewOnly: 'Pages can only be added to a preview.',
  /** A page of a scan whose stored content was dropped before it was added. */
  contentGone: 'The content of this page is no longer available. Please scan the website again.',
} as const;

/** The plans' paid features (services plans/feature-gates.ts), one text per feature. */
export const planMessages = {
  needsPaidPlan: {
    telegram: 'Telegram needs a paid plan. Upgrade on the pricing page to use it.',
    whatsapp: 'WhatsApp needs a paid plan. Upgrade on the pricing page to use it.',
    instagram: 'Instagram needs a paid plan. Upgrade on the pricing page to use it.',
    scheduled_recrawl: 'Scheduled recrawl needs a paid plan. Upgrade on the pricing page to use it.',
    google_drive: 'Google Drive needs a paid plan. Upgrade on the pricing page to use it.',
  },
  /** The limits check of files needs the assistant the files are counted for. */
  filesCheckNeedsAssistant: 'assistant_id is required to check the files limit.',
} as const;

/**
 * A channel that refused its setup: the spec's "Failed to setup … integration" (integrations.dto.ts
 * setupFailed) with the reason after it, as the client shows it (§8).
 */
export const channelSetupMessages = {
  refused: {
    telegram: (reason: string) => `Failed to setup Telegram integration: ${reason}`,
    whatsapp: (reason: string) => `Failed to setup WhatsApp integration: ${reason}`,
    instagram: (reason: string) => `Failed to setup Instagram integration: ${reason}`,
  },
} as const;

/** A web address the crawler, or a settings test, could not fetch (services outbound/outbound-error.ts). */
export const siteMessages = {
  invalidUrl: (url: string) => `"${url}" is not a valid web address.`,
  unsupportedScheme: (scheme: string) => `Only http:// and https:// addresses can be fetched (got ${scheme}).`,
  credentialsInUrl: 'Addresses with a user name or password in them are not fetched.',
  unresolvable: (host: string) => `The site ${host} could not be found.`,
  unreachable: (host: string) => `The site ${host} could not be reached.`,
  timeout: (host: string, seconds: number) => `The site ${host} did not answer within ${seconds} seconds.`,
  tooManyRedirects: (limit: number) => `The address redirected more than ${limit} times.`,
  redirectLoop: 'The address redirects in a loop.',
  badRedirect: 'The site redirected to an address that is not valid.',
  aborted: 'The fetch was cancelled.',
} as const;

/** Subscriptions and the test payment page (spec part 2 §2). */
export const billingMessages = {
  declined: 'Your card was declined. Please try a different card.',
  /** Names the two test cards (billing.dto.ts TEST_CARDS), written out: this module has no imports. */
  unknownCard: 'This is a test page: use the test card 4580458045804580 (or 4000000000000002 to see a decline).',
  expired: 'The card has expired. Check the expiry date.',
  paid: 'Payment successful! Your subscription is active.',
  alreadyPaid: 'This checkout is already paid. Your subscription is active.',
  alreadySubscribed: 'You already have a subscription. Change or cancel it from the Billing page.',
  receiptNotFound: 'Receipt not found.',
  returnOffSite: 'The return address must be on this site.',
  testPaymentsOff: 'Test payments are off: this deployment takes payments through Stripe.',
  checkoutOfAnother: 'This checkout belongs to another account.',
  cardNumber: 'card_number must be 13 to 16 digits',
  cardHolder: 'card_holder is required',
  expiry: 'expiry must be MM/YY',
  cvv: 'cvv must be 3 or 4 digits',
} as const;
