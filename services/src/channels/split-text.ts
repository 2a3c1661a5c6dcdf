/**
 * Splits an answer into parts a channel accepts (Telegram and WhatsApp: 4096 characters, Instagram:
 * 1000), cutting at a paragraph, then a line, then a sentence, then a space near the end of each part,
 * and never inside a surrogate pair (an emoji or a rare character cut in half arrives as garbage).
 */
export function splitText(text: string, limit: number): string[] {
  const parts: string[] = [];
  let rest = text.trim();
  while (rest.length > limit) {
    const window = rest.slice(0, limit);
    // Only cut near the end: a boundary in the first half would make many tiny parts.
    const floor = Math.floor(limit / 2);
    let cut = -1;
    for (const boundary of ['\n\n', '\n', '. ', ' ']) {
      const at = window.lastIndexOf(boundary);
      if (at >= floor) {
        cut = at + boundary.length;
        break;
      }
    }
    if (cut === -1) {
      cut = limit;
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    const part = rest.slice(0, cut).trimEnd();
    if (part) parts.push(part);
    rest = rest.slice(cut).trimStart();
  }
  if (rest) parts.push(rest);
  return parts;
}
