/**
 * The Drive module's public entry: the owner's Google Drive connection, the Drive client, and how a Drive
 * file is read into knowledge. Other modules import only this file (DESIGN.md §3, eslint.config.js).
 */
export { createDriveConnections } from './drive-connections.js';
export type { DriveConnections } from './drive-connections.js';
export { driveFileUrl, driveReading, knowledgeFileName } from './drive-files.js';
export { driveMigrations } from './drive.migrations.js';
export { GoogleDriveError, createGoogleDriveClient } from './google-drive.client.js';
export type { GoogleDriveClient } from './google-drive.client.js';
