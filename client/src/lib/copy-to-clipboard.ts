import { useCallback, useEffect, useState } from 'react';

/** A copy button says "Copied!" for 2 s (spec part 1 §9). */
export const COPIED_MS = 2000;

export async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Older browsers and non-secure contexts: copy through a selected, off-screen text area.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/** `copied` is true for COPIED_MS after each successful `copy(text)`. */
export function useCopyToClipboard() {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = useCallback((text: string) => copyText(text).then(() => setCopied(true)), []);
  return { copied, copy };
}
