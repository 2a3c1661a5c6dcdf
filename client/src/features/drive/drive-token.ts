/**
 * The Google Drive access token the OAuth return hands the browser (spec §2: stored locally). The key is
 * the one the OAuth callback and the dashboard write; the picker reads it, and clears it when Google no
 * longer accepts it.
 */
export const DRIVE_TOKEN_KEY = 'googleDriveToken';

/**
 * The Drive link this tab started: the server names each flow, and the OAuth return page (which reads the
 * same key) accepts a token only for the flow it finds here — not one from a link someone else made.
 */
export const DRIVE_FLOW_KEY = 'googleDriveFlow';
export const driveFlow = { start: (flow: string) => sessionStorage.setItem(DRIVE_FLOW_KEY, flow) };

export const driveToken = {
  get: (): string | null => localStorage.getItem(DRIVE_TOKEN_KEY),
  set: (token: string) => localStorage.setItem(DRIVE_TOKEN_KEY, token),
  clear: () => localStorage.removeItem(DRIVE_TOKEN_KEY),
};
