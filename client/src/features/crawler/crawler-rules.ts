import { crawlerLimits, type PreviewFileDto } from '@kesher/contracts';

/** Client-side check of the website field (spec §5): required and trimmed, a full http(s) address. */
export function websiteProblem(value: string): 'websiteRequired' | 'invalidUrl' | null {
  const url = value.trim();
  if (!url) return 'websiteRequired';
  try {
    const parsed = new URL(url);
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname ? null : 'invalidUrl';
  } catch {
    return 'invalidUrl';
  }
}

/** Spec §9: long addresses are shown cut at 50 characters. */
export const truncateUrl = (url: string, max: number = crawlerLimits.urlDisplayChars) =>
  url.length > max ? `${url.slice(0, max)}...` : url;

/**
 * Spec §4 File Selection preset: the pages the assistant already holds that the scan found again;
 * otherwise every page found (in sales mode, the sales pages and the other pages — all of them too).
 */
export function presetSelection(
  files: readonly PreviewFileDto[],
  held: readonly { url: string; filename: string }[],
): Set<string> {
  const heldUrls = new Set(held.map((page) => page.url));
  const heldNames = new Set(held.map((page) => page.filename));
  const again = files
    .filter((file) => heldNames.has(file.filename) || heldUrls.has(file.url))
    .map((file) => file.filename);
  return new Set(again.length > 0 ? again : files.map((file) => file.filename));
}
