export const en = {
  hero: {
    title: 'AI assistants that know your business',
    text: 'Kesher turns your documents and website into a chat assistant that answers customers day and night — in Hebrew and English.',
    primary: 'Create Assistant',
    secondary: 'See the features',
    trial: 'Start free, no credit card needed. Paid monthly plans start with a 14-day free trial.',
  },
  splits: [
    {
      title: 'Train it on your own content',
      text: 'Upload PDF, Word, text and CSV files, or let the smart website scanner find your pages. The assistant answers from what you gave it, not from guesses.',
      icon: '📄',
    },
    {
      title: 'Sell and support in one place',
      text: 'Sales Mode guides customers to the right buying page; Support Mode answers questions and hands over to a person when needed.',
      icon: '💬',
    },
    {
      title: 'Share it anywhere',
      text: 'A public link, a website widget, or messaging channels — and an analytics dashboard to see what customers ask.',
      icon: '🚀',
    },
  ],
  createLink: 'Create Assistant',
  security: {
    title: 'Security and privacy first',
    points: [
      'Each owner sees and manages only their own assistants and files.',
      'Traffic is encrypted, and passwords are stored only as strong one-way hashes.',
      'You can delete files and assistants at any time; we explain retention in our Privacy Policy.',
    ],
  },
  teaser: {
    title: 'Simple pricing',
    text: 'Start free with one assistant. Upgrade to Pro or Enterprise as you grow: more assistants, messages and knowledge.',
    link: 'Compare plans',
  },
  faqTitle: 'Frequently asked questions',
  faq: [
    {
      q: 'What is Kesher?',
      a: 'A platform for building AI chat assistants trained on your own documents and website, and sharing them with your customers.',
    },
    {
      q: 'Do I need technical knowledge?',
      a: 'No. You fill in a form, upload files or give a website address, and the assistant is ready.',
    },
    {
      q: 'Which files can I upload?',
      a: 'PDF, DOCX, TXT and CSV, as well as Markdown, JSON, Excel and PowerPoint files.',
    },
    {
      q: 'Does it speak Hebrew?',
      a: 'Yes. The interface is fully bilingual, with right-to-left support, and assistants answer in the language they are asked in.',
    },
    {
      q: 'How do customers reach my assistant?',
      a: 'Through a share link, a chat widget on your website, or connected messaging channels.',
    },
    {
      q: 'What is Sales Mode?',
      a: 'When the website scanner is on, the assistant can refer customers to the buying pages it found on your site.',
    },
    {
      q: 'Does the assistant stay up to date?',
      a: 'Yes. The website scanner can re-read your site on a schedule, so content updates every 24 hours by default.',
    },
    {
      q: 'Is there a free trial?',
      a: 'Yes, paid monthly plans start with a 14-day free trial, and the Free plan costs nothing.',
    },
    {
      q: 'Can I cancel at any time?',
      a: 'Yes. You keep access until the end of the period you paid for. Refund terms are in our Terms of Service.',
    },
    {
      q: 'Who can see my data?',
      a: 'Only you. Each account is isolated, and your content is used only to answer your customers.',
    },
  ],
  cta: { title: 'Ready to build your first assistant?', text: 'It takes a few minutes.', button: 'Create Assistant' },
  featuresPage: {
    title: 'Features',
    intro: 'Everything you need to answer customers with an assistant that knows your business.',
    items: [
      {
        title: 'Autonomic Sync',
        text: 'Your website is re-scanned on a schedule, so answers follow your latest content.',
      },
      { title: 'Salesman Mode', text: 'Guides customers towards the right product and buying page.' },
      { title: 'Support Mode', text: 'Answers questions from your documents and knows when to hand over to a person.' },
      { title: 'Widget Preview', text: 'See the chat widget on your own site before you embed it.' },
      {
        title: 'Analytics Dashboard',
        text: 'Conversations, response times, keywords and sales referrals at a glance.',
      },
      { title: 'Easy Data Integration', text: 'Upload files, import from Google Drive or scan your website.' },
      { title: 'Easy Deployment Integration', text: 'Share a link, embed a widget or connect messaging channels.' },
      { title: 'Secure & Reliable', text: 'Isolated accounts, encrypted traffic and careful data retention.' },
    ],
  },
};
export type MarketingLocale = typeof en;
