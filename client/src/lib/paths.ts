/** Every route of the spec's route table (§2), in one place: links and redirects build on these. */
export const paths = {
  home: '/',
  login: '/login',
  register: '/register',
  about: '/about',
  faq: '/about#faq',
  features: '/features',
  pricing: '/pricing',
  terms: '/terms',
  privacy: '/privacy',
  oauthCallback: '/oauth/callback',
  // E-mail ownership (not in the spec's table): where the mailed links land, and how to ask for one.
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  publicChat: (assistantId: string | number, threadId?: string) =>
    `/public-chat/${assistantId}${threadId ? `/${threadId}` : ''}`,
  sharedChat: (shareToken: string) => `/shared-chat/${shareToken}`,
  embed: (shareToken: string) => `/embed/${shareToken}`,
  paymentTest: '/payment/tranzila-test',
  dashboard: '/dashboard',
  createAssistant: '/create-assistant',
  editAssistant: (assistantId: string | number) => `/edit-assistant/${assistantId}`,
  analytics: '/analytics',
  integrations: '/integrations',
  /** The one inbox across every assistant (beyond the spec's route table). */
  inbox: '/inbox',
  workflows: '/workflows',
  guidelines: '/guidelines',
  actions: '/actions',
  billing: '/billing',
  settings: '/settings',
  widgetPreview: (assistantId: string | number) => `/widget-preview/${assistantId}`,
  chat: (assistantId: string | number, threadId?: string) => `/chat/${assistantId}${threadId ? `/${threadId}` : ''}`,
  // Linked from the header and footer; the spec shows no page for them (they land on the fallback screen).
  releases: '/releases',
  community: '/community',
  affiliate: '/affiliate',
  featureRequest: '/feature-request',
  loginWithRedirect: (redirect: string) => `/login?redirect=${encodeURIComponent(redirect)}`,
  /** /pricing with a paid plan chosen (it survives the trip through sign-in inside `redirect`). */
  pricingChoice: (plan: 'pro' | 'enterprise', billing: 'monthly' | 'yearly' = 'monthly') =>
    `/pricing?plan=${plan}&billing=${billing}`,
} as const;
