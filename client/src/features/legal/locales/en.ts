type Section = { id: string; title: string; text: string };

const terms: Section[] = [
  {
    id: 'acceptance',
    title: 'Acceptance of these terms',
    text: 'By creating an account or using Kesher you agree to these Terms of Service. If you use Kesher for a business, you accept them on its behalf. You must be at least 18 years old to create an account or use Kesher.',
  },
  {
    id: 'service',
    title: 'The service',
    text: 'Kesher lets you build AI chat assistants from your own content and share them through links, website widgets and messaging channels.',
  },
  {
    id: 'accounts',
    title: 'Your account',
    text: 'Keep your sign-in details safe and tell us about any unauthorised use. You are responsible for what happens under your account.',
  },
  {
    id: 'content',
    title: 'Your content',
    text: 'You keep all rights to the files, websites and instructions you give Kesher. You allow us to process them only to run your assistants.',
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    text: 'Do not use Kesher for unlawful, harmful, deceptive or infringing content, to send spam, or to attack or overload the service.',
  },
  {
    id: 'ai-output',
    title: 'AI answers',
    text: 'Assistants generate answers automatically and can be wrong. Review important answers, and do not present them as professional advice.',
  },
  {
    id: 'plans',
    title: 'Plans and trials',
    text: 'Free and paid plans have the limits shown on the pricing page. Paid plans start with a 7-day free trial.',
  },
  {
    id: 'payment',
    title: 'Payment',
    text: 'Paid plans are billed in advance, monthly or yearly, through our payment provider. Taxes are added where required.',
  },
  {
    id: 'price-changes',
    title: 'Price changes',
    text: "We give at least 30 days' notice before a price change takes effect for your subscription.",
  },
  {
    id: 'refunds',
    title: 'Refunds',
    text: 'You may ask for a refund within 7 days of a payment if your usage in that period is under 10,000 API calls and it is your first refund.',
  },
  {
    id: 'cancellation',
    title: 'Cancellation',
    text: 'You can cancel at any time; your plan stays active until the end of the period you paid for.',
  },
  {
    id: 'availability',
    title: 'Availability and changes',
    text: 'We work to keep Kesher available and may improve or change features. We will tell you in advance about changes that reduce what you pay for.',
  },
  {
    id: 'third-parties',
    title: 'Third-party services',
    text: 'Some features connect to services such as Google Drive, Telegram or WhatsApp; their own terms apply to them.',
  },
  {
    id: 'ip',
    title: 'Our intellectual property',
    text: "Kesher's software, design and brand belong to us. These terms give you a right to use the service, not to copy it.",
  },
  {
    id: 'liability',
    title: 'Limitation of liability',
    text: 'Our total liability is limited to the greater of what you paid us in the 12 months before the claim or $100.',
  },
  {
    id: 'termination',
    title: 'Suspension and termination',
    text: 'We may suspend accounts that break these terms. You may close your account at any time.',
  },
  {
    id: 'contact',
    title: 'Changes to these terms and contact',
    text: 'We will notify you of material changes to these terms. Questions are welcome through the contact details on our website.',
  },
];

const privacy: Section[] = [
  {
    id: 'who',
    title: 'Who we are',
    text: 'Kesher provides a platform for AI chat assistants. This policy explains what we collect and why.',
  },
  {
    id: 'collect',
    title: 'What we collect',
    text: 'Account details (e-mail, name), the content you upload or let us scan, conversations with your assistants, and technical data such as device and usage information.',
  },
  {
    id: 'use',
    title: 'How we use it',
    text: 'To run your assistants, keep the service secure, provide support, bill paid plans and improve Kesher.',
  },
  {
    id: 'legal-basis',
    title: 'Legal basis',
    text: 'We process data to perform our contract with you, for our legitimate interests in a secure service, and with your consent where the law requires it.',
  },
  {
    id: 'sharing',
    title: 'Sharing',
    text: 'We share data only with providers that help us run the service (hosting, AI processing, payments), under contracts that protect it. We do not sell data.',
  },
  {
    id: 'retention',
    title: 'Retention',
    text: 'Conversation history is kept 90 days after a conversation closes; payment records 7 years; analytics 24 months; security logs 12 months. Accounts inactive for over 24 months may be deleted.',
  },
  {
    id: 'security',
    title: 'Security',
    text: "Data is encrypted in transit, access is limited to what each task needs, and each owner's data is isolated.",
  },
  {
    id: 'breach',
    title: 'Breach notification',
    text: 'If a breach affects your personal data, we will notify you and the relevant authority within 72 hours of learning of it.',
  },
  {
    id: 'rights',
    title: 'Your rights',
    text: 'You can ask to access, correct, export or delete your data, or object to its processing. We answer requests within 30 days.',
  },
  {
    id: 'cookies',
    title: 'Cookies and local storage',
    text: 'Kesher stores your session and language choice in your browser. We do not use advertising cookies.',
  },
  {
    id: 'children',
    title: 'Children',
    text: 'Kesher is not meant for children under 16, and we do not knowingly collect their data.',
  },
  {
    id: 'transfers',
    title: 'International transfers',
    text: 'Where data leaves your country, we rely on safeguards that the law recognises.',
  },
  {
    id: 'changes',
    title: 'Changes and contact',
    text: 'We will post changes to this policy here and notify you of material ones. Contact us with any privacy question.',
  },
];

export const en = {
  termsTitle: 'Terms of Service',
  privacyTitle: 'Privacy Policy',
  updated: 'Last updated: November 2026',
  toc: 'Contents',
  quickNav: 'Quick navigation',
  terms,
  privacy,
};
export type LegalLocale = typeof en;
