/**
 * Plain-text files arrive in whatever encoding the owner's editor used. A byte-order mark settles it;
 * otherwise UTF-16 shows itself by its zero bytes, UTF-8 by decoding without error, and what is left is a
 * legacy single-byte code page: Windows-1255 (Hebrew) or Windows-1252 / ISO-8859-1 (Western European),
 * whichever reads as words (see looksLikeWindows1255).
 */
export function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));

  const utf16 = guessUtf16WithoutBom(bytes);
  if (utf16) return new TextDecoder(utf16).decode(bytes);

  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder(looksLikeWindows1255(bytes) ? 'windows-1255' : 'windows-1252').decode(bytes);
  }
}

/**
 * Text in UTF-16 has a zero byte in almost every pair for Latin text and a 0x05 high byte for Hebrew;
 * either way one side of the pairs is far more uniform than real UTF-8 ever is.
 */
function guessUtf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const pairs = Math.min(Math.floor(bytes.length / 2), 4096);
  if (pairs < 2) return undefined;
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < pairs; i++) {
    if (bytes[2 * i] === 0 || bytes[2 * i] === 0x05) zeroEven++;
    if (bytes[2 * i + 1] === 0 || bytes[2 * i + 1] === 0x05) zeroOdd++;
  }
  if (zeroOdd / pairs > 0.6 && zeroEven / pairs < 0.1) return 'utf-16le';
  if (zeroEven / pairs > 0.6 && zeroOdd / pairs < 0.1) return 'utf-16be';
  return undefined;
}

/**
 * Both code pages put letters at 0xC0–0xFF: Hebrew letters (0xE0–0xFA) and points in Windows-1255, accented
 * Latin letters in Windows-1252. Which one a file is shows in how those bytes sit in words. A Hebrew word
 * is made of them alone (שלום is four such bytes); an accented Latin word mixes them with plain ASCII
 * letters (Café, crème, brûlée). So each word holding such a byte votes: all high bytes for Hebrew, any
 * ASCII letter for Latin. (Counting bytes instead read "Café crème brûlée" as Hebrew: é and è are
 * 0xE9 and 0xE8, right among the Hebrew letters.)
 */
function looksLikeWindows1255(bytes: Uint8Array): boolean {
  let hebrew = 0;
  let latin = 0;
  let high = 0;
  let ascii = 0;
  const endWord = () => {
    if (high >= 2 && ascii === 0) hebrew++;
    else if (high > 0 && ascii > 0) latin++;
    high = 0;
    ascii = 0;
  };
  for (const byte of bytes) {
    if (byte >= 0xc0) high++;
    else if ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)) ascii++;
    else endWord();
  }
  endWord();
  return hebrew > latin;
}
