/** Hebrew text as Windows-1255 bytes (letters, ASCII; anything else becomes "?"): for tests of legacy pages. */
export function encodeWindows1255(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes[i] = code < 0x80 ? code : code >= 0x05d0 && code <= 0x05ea ? 0xe0 + (code - 0x05d0) : 0x3f;
  }
  return bytes;
}
