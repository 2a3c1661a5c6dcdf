/** The privacy features' texts: retention, Download my data, the security log, a visitor's own deletion. */
export const en = {
  retention: {
    title: 'How long we keep your data',
    conversations: 'Conversations: {days} days after their last message, then erased for good',
    analytics: 'Analytics: {months} months in detail, then counts only (who asked what is erased)',
    securityLog: 'Security log: {months} months',
    payments: 'Payment records: {years} years (required by law), even after the account is deleted',
    inactive: 'Accounts unused for {months} months: we email you, then delete the account 30 days later',
    loading: 'Loading retention periods...',
    failed: 'Could not load the retention periods.',
  },
  yourData: {
    title: 'Your data',
    intro:
      'Download everything Kesher holds about you and your assistants: account, assistants, files, conversations with their channel, analytics and payments (a zip of JSON and CSV files).',
    download: 'Download my data',
    downloading: 'Preparing your data...',
    downloaded: 'Your data was downloaded',
    failed: 'Could not prepare your data. Please try again.',
    logTitle: 'Security log',
    logEmpty: 'Nothing recorded yet.',
    kinds: {
      data_exported: 'You downloaded your data',
      conversation_erased: 'A visitor deleted their conversation',
      channel_contact_erased: 'A {channel} customer deleted their data',
      retention_run: '{count} conversations erased after {days} days (retention)',
      inactivity_warning: 'Inactivity warning emailed',
    },
  },
  keptUntil: 'Kept until {date}',
  deleteConversation: {
    button: 'Delete this conversation',
    confirm: "Delete this conversation for good? Its messages cannot be recovered, by you or by the assistant's owner.",
    yes: 'Delete',
    cancel: 'Cancel',
    deleting: 'Deleting...',
    deleted: 'The conversation was deleted.',
    failed: 'Could not delete the conversation. Please try again.',
  },
};
