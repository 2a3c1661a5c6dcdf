/**
 * Loanwords and names written in the other script: יוגה is "yoga", ריטריט "retreat", טויוטה "Toyota",
 * יעל מזרחי "Yael Mizrahi". Business Hebrew borrows much of its trade vocabulary from English (סטודיו, לוקר,
 * פילאטיס, אספרסו), and no lexicon keeps up with it, so the answer engine also compares a question word
 * with the other script's words by their consonants: each Hebrew letter stands for the sounds it can
 * spell, an English word is read into sounds (vowels dropped), and the two meet when they have the same
 * consonants in the same order. Short skeletons collide ("גם" and "gum"), so at least three consonants,
 * or two in words of four letters and more, are needed.
 */

/** The sounds a Hebrew consonant letter can spell; vowel letters (א ע, ו and י inside a word, final ה) spell none. */
const HEBREW_SOUNDS: Record<string, readonly string[]> = {
  ב: ['b', 'v'],
  ג: ['g', 'j', 'J'],
  ד: ['d'],
  ה: ['h'],
  ז: ['z', 'j', 'J'],
  ח: ['h', 'C'],
  ט: ['t'],
  כ: ['k', 'C'],
  ך: ['k', 'C'],
  ל: ['l'],
  מ: ['m'],
  ם: ['m'],
  נ: ['n'],
  ן: ['n'],
  ס: ['s'],
  פ: ['p', 'f'],
  ף: ['p', 'f'],
  צ: ['Z', 'C', 'z', 's'],
  ץ: ['Z', 'C', 'z', 's'],
  ק: ['k'],
  ר: ['r'],
  ש: ['s', 'S'],
  ת: ['t'],
};

const HEBREW_PROCLITICS = /^(?:[ובלמהשכ]|וה|וב|ול|ומ|וש|שה|שב|של|מה|לה|בה|כש)/u;

/** The consonant letters of a Hebrew word as sets of sounds; ו at the start or doubled is v, י at the start y. */
function hebrewSkeleton(word: string): (readonly string[])[] {
  const letters = [...word];
  const skeleton: (readonly string[])[] = [];
  for (let i = 0; i < letters.length; i++) {
    const letter = letters[i]!;
    if (letter === 'ו') {
      if (i === 0) skeleton.push(['v']);
      else if (letters[i + 1] === 'ו') {
        skeleton.push(['v']);
        i++;
      }
      continue;
    }
    if (letter === 'י') {
      if (i === 0) skeleton.push(['y']);
      continue;
    }
    if (letter === 'ה' && i === letters.length - 1) continue;
    const sounds = HEBREW_SOUNDS[letter];
    if (sounds) skeleton.push(sounds);
  }
  return skeleton;
}

/** The consonant sounds of an English word, in order; doubled letters are one sound. */
export function englishSkeleton(word: string): string[] {
  const text = word.toLowerCase().replace(/[^a-z]/g, '');
  const sounds: string[] = [];
  const push = (sound: string) => {
    if (sounds.at(-1) !== sound) sounds.push(sound);
  };
  for (let i = 0; i < text.length; i++) {
    const letter = text[i]!;
    const next = text[i + 1] ?? '';
    const pair = letter + next;
    if (pair === 'sh') {
      push('S');
      i++;
    } else if (pair === 'ch') {
      push('C');
      i++;
    } else if (pair === 'th') {
      push('t');
      i++;
    } else if (pair === 'ph') {
      push('f');
      i++;
    } else if (pair === 'ck') {
      push('k');
      i++;
    } else if (pair === 'ts' || pair === 'tz') {
      push('Z');
      i++;
    } else if (pair === 'qu') {
      push('k');
      push('v');
      i++;
    } else if (letter === 'x') {
      push('k');
      push('s');
    } else if (letter === 'c') push(/[eiy]/.test(next) ? 's' : 'k');
    // A soft g ("massage", "gel") is written ג' or ז' in Hebrew.
    else if (letter === 'g' && /[eiy]/.test(next)) push('J');
    else if (letter === 'q') push('k');
    else if (letter === 'w') push('v');
    else if (letter === 'y') {
      if (i === 0) push('y');
    } else if (!'aeiou'.includes(letter)) push(letter);
    // A vowel between two equal consonants keeps them two ("tatami"): reset the doubling guard.
    else if (sounds.length > 0 && letter !== next) sounds.push('');
  }
  return sounds.filter(Boolean);
}

function meets(hebrew: readonly (readonly string[])[], english: readonly string[]): boolean {
  if (hebrew.length !== english.length) return false;
  return english.every((sound, i) => hebrew[i]!.includes(sound));
}

const HEBREW = /[\u05D0-\u05EA]/u;

/** Enough consonants to trust a meeting: three, or two when both words have four letters or more. */
const trusted = (consonants: number, hebrewWord: string, englishWord: string) =>
  consonants >= 3 || (consonants === 2 && [...hebrewWord].length >= 4 && englishWord.length >= 4);

/**
 * Whether a Hebrew and an English word may be the same word written in two scripts. The Hebrew word may
 * carry a proclitic (ביוגה, הסטודיו) and the English one a plural; either order of arguments.
 */
export function sameWordAcrossScripts(a: string, b: string): boolean {
  const [hebrew, english] = HEBREW.test(a) ? [a, b] : [b, a];
  if (!HEBREW.test(hebrew) || HEBREW.test(english) || !/^[a-z]+$/i.test(english)) return false;
  // Plurals, and adjectives of origin: שוודי is "Swedish", איטלקי "Italian".
  const englishForms = [english, english.replace(/(?<=[^s])s$/i, ''), english.replace(/(?:ish|ian|ic|ese)$/i, '')];
  const bare = hebrew.replace(HEBREW_PROCLITICS, '');
  const hebrewForms = [
    hebrew,
    bare,
    ...[hebrew, bare].flatMap((h) => [h.replace(/(?:ים|ות)$/u, ''), h.replace(/י$/u, '')]),
  ];
  for (const h of new Set(hebrewForms)) {
    if ([...h].length < 3) continue;
    const skeleton = hebrewSkeleton(h);
    for (const e of new Set(englishForms)) {
      const sounds = englishSkeleton(e);
      if (trusted(sounds.length, h, e) && meets(skeleton, sounds)) return true;
    }
  }
  return false;
}
