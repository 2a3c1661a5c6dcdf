/**
 * The Google Drive access token the OAuth return hands the browser (spec §2: stored locally). The key is
 * the one the OAuth callback and the dashboard write; the picker reads it, and clears it when Google no
 * longer accepts it.
 */
export const DRIVE_TOKEN_KEY = 'googleDriveToken';

export const driveToken = {
  get: (): string | null => localStorage.getItem(DRIVE_TOKEN_KEY),
  set: (token: string) => localStorage.setItem(DRIVE_TOKEN_KEY, token),
  clear: () => localStorage.removeItem(DRIVE_TOKEN_KEY),
};
