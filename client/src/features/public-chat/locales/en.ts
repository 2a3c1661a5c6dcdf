export const en = {
  loadingAssistant: 'Loading assistant...',
  retry: 'Try Again',
  invalidLink: 'Invalid or expired share link.',
  startFailed: 'Failed to start chat.',
  sharedAssistant: 'Shared Assistant',
  chatSoon: 'Chatting with shared assistants arrives with the chat feature.',
  initializing: 'Initializing chat...',
  notFound: 'Assistant not found.',
  notFoundHint: 'Ask the site owner for a new link.',
  noToken: 'No share token provided in URL',
  online: 'Online',
  hi: "Hi! I'm {name}",
  invite: "I'm here to help. Ask me anything.",
};
export type PublicChatLocale = typeof en;
