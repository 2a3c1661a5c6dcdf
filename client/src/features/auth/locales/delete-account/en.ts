/** "Delete my account" on the owner's settings page (DELETE /auth/me). */
export const en = {
  pageTitle: 'Settings',
  title: 'Delete my account',
  intro:
    'Deleting your account cancels your subscription, disconnects your channels, signs you out of Google Drive and deletes your assistants, files and conversations (your visitors’ and customers’ too). Your personal data is erased for good and cannot be restored. Payment records are kept as the law requires.',
  open: 'Delete my account',
  confirmTitle: 'Delete your account for good?',
  confirmText: 'This cannot be undone. Enter your password to confirm.',
  confirmTextGoogle:
    'This cannot be undone. You signed in with Google: if you signed in more than 10 minutes ago, sign out and in again first.',
  password: 'Password',
  confirm: 'Delete my account',
  deleting: 'Deleting your account...',
  cancel: 'Cancel',
  deleted: 'Your account and its data were deleted.',
  errors: {
    passwordRequired: 'Please enter your password to delete your account.',
    wrongPassword: 'The password is incorrect.',
    signInAgain: 'Please sign in again, then delete your account within 10 minutes.',
    tooMany: 'Too many attempts. Please try again later.',
    failed: 'Your account could not be deleted. Please try again.',
  },
};
