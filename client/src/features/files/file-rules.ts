/**
 * Spec §5: the upload dialog checks PDF, DOCX, TXT and CSV on selection; the server also takes md, json,
 * xlsx and pptx (contracts' uploadExtensions), so the picker offers those too and the check follows the server.
 */
import { uploadExtensions, uploadLimits } from '@kesher/contracts';

export const acceptAttribute = uploadExtensions.map((ext) => `.${ext}`).join(',');

export type FileProblem = 'badType' | 'tooLarge' | null;

export function fileProblem(file: { name: string; size: number }): FileProblem {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(uploadExtensions as readonly string[]).includes(ext)) return 'badType';
  if (file.size > uploadLimits.maxFileBytes) return 'tooLarge';
  return null;
}

/** Spec §9 size display: B, KB, MB, GB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
