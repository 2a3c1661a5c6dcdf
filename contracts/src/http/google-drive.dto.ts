import { z } from 'zod';
import { KnowledgeFileSchema } from './files.dto.js';

/**
 * Google Drive import (spec part 1 §7 Google Drive, §3 Google Drive file, §9 page size 50). The browser
 * holds the access token the OAuth return handed it (spec §2 OAuth callback) and sends it with each call;
 * the refresh token stays on the server, sealed.
 */
export const DRIVE_PAGE_SIZE = 50;

export const driveMessages = {
  selectFiles: 'Please select files to import',
  signInFirst: 'Please sign in to Google Drive first',
  sessionExpired: 'Your Google Drive session has expired. Please connect again.',
  notConfigured: 'Google Drive is not set up on this server.',
  connectFailed: 'Failed to connect to Google Drive',
  loadFailed: 'Failed to load files from Google Drive',
  unsupportedType: 'This file type cannot be imported.',
  /** The consent screen's return reached a browser that did not start the flow (or a flow it did not start). */
  otherBrowser:
    'This Google Drive connection was started in another browser or session, so it was not completed. Please connect Google Drive again in this browser.',
} as const;

const AccessTokenSchema = z.string().trim().min(1, driveMessages.signInFirst).max(4096);
/** Drive ids are URL-safe letters, digits, `-` and `_`. */
const DriveFileIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,200}$/, 'Not a Google Drive file id.');

export const DriveAuthUrlRequestSchema = z.object({ assistant_id: z.coerce.number().int().positive() });
export const DriveAuthUrlResponseSchema = z.object({
  auth_url: z.string().url(),
  /** Names this flow: the return to /oauth/callback carries it back, and the page accepts only the flow it started. */
  flow: z.string(),
});

export const DriveFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number().int().nonnegative().nullable(),
  modifiedTime: z.string().nullable(),
});
export type DriveFileDto = z.infer<typeof DriveFileSchema>;

export const DriveListRequestSchema = z.object({
  access_token: AccessTokenSchema,
  query: z.string().max(200).default(''),
  page_size: z.coerce.number().int().min(1).max(100).default(DRIVE_PAGE_SIZE),
  page_token: z.string().max(500).optional(),
});
export const DriveListResponseSchema = z.object({
  files: z.array(DriveFileSchema),
  next_page_token: z.string().nullable(),
});

export const DriveImportRequestSchema = z.object({
  assistant_id: z.coerce.number().int().positive(),
  access_token: AccessTokenSchema,
  /** The picked files; only the id is trusted — name and type are read again from Drive. */
  files: z
    .array(z.object({ id: DriveFileIdSchema }).passthrough())
    .min(1, driveMessages.selectFiles)
    .max(50),
});
/** The same import with bare ids (the multi-select picker's call). */
export const DriveImportMultipleRequestSchema = z.object({
  assistant_id: z.coerce.number().int().positive(),
  access_token: AccessTokenSchema,
  file_ids: z.array(DriveFileIdSchema).min(1, driveMessages.selectFiles).max(50),
});
export const DriveImportResponseSchema = z.object({
  imported: z.array(z.object({ drive_file_id: z.string(), name: z.string(), file: KnowledgeFileSchema })),
  failed: z.array(z.object({ drive_file_id: z.string(), name: z.string().nullable(), error: z.string() })),
});
export type DriveImportResponse = z.infer<typeof DriveImportResponseSchema>;

export const DriveTokenResponseSchema = z.object({ access_token: z.string(), expires_in: z.number().int().nullable() });
export const DriveRevokeRequestSchema = z.object({ access_token: z.string().max(4096).optional() });
