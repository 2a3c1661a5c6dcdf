import type { GuidelineFields } from '@kesher/contracts';

/**
 * What the built-in engine can apply of an owner's guidelines without a language model: rules it can
 * read from the instructions and carry out exactly. Everything else still reaches the OpenAI provider as
 * text. The readable rules, in English or Hebrew, with the phrase in quotes:
 *
 * - a preferred phrase: `use "client" instead of "customer"`, `"customer" -> "client"`, `say "client" not "customer"`,
 *   `"לקוח" במקום "קונה"` / `במקום "קונה" כתוב "לקוח"`;
 * - an opening: `start every answer with "Hello!"` / `התחל כל תשובה ב"שלום!"`;
 * - a closing line or sign-off: `end every answer with "— The team"`, `sign off with "…"`, `closing line: "…"`,
 *   `סיים כל תשובה ב"…"`, `חתימה: "…"`;
 * - bullets: instructions asking for a bullet list (`bullet points`, `רשימת תבליטים`) turn the answer's sentences into one.
 */
export interface GuidelineRules {
  replacements: { from: string; to: string }[];
  opening: string | null;
  closing: string | null;
  bullets: boolean;
}

const Q = `["“”„«»'‘’]`;
const quoted = `${Q}([^"“”„«»]{1,300}?)${Q}`;

const patterns = {
  insteadOf: [
    new RegExp(`(?:use|say|write|prefer)\\s+${quoted}\\s+(?:instead\\s+of|rather\\s+than|not)\\s+${quoted}`, 'giu'),
    new RegExp(`${quoted}\\s+במקום\\s+${quoted}`, 'giu'),
  ],
  reversed: [
    new RegExp(`${quoted}\\s*(?:->|→|=>)\\s*${quoted}`, 'giu'),
    new RegExp(
      `(?:instead\\s+of|rather\\s+than|never\\s+say|don't\\s+say|do\\s+not\\s+say)\\s+${quoted}\\s*,?\\s*(?:use|say|write)\\s+${quoted}`,
      'giu',
    ),
    new RegExp(
      `(?:במקום|לא)\\s+${quoted}\\s*,?\\s*(?:כתוב|כתבו|תכתוב|תגיד|אמור|השתמש\\s+ב-?|השתמשו\\s+ב-?)\\s*${quoted}`,
      'giu',
    ),
    new RegExp(`(?:write|spell)\\s+${quoted}\\s+as\\s+${quoted}`, 'giu'),
  ],
  opening: [
    new RegExp(
      `(?:start|begin|open)\\s+(?:every|each|all|your)?\\s*(?:answers?|responses?|replies|reply|messages?)?\\s*with\\s+${quoted}`,
      'iu',
    ),
    new RegExp(`(?:התחל|התחילו|תתחיל|פתח|פתחו)\\s+(?:כל\\s+)?(?:תשובה|תשובות|הודעה)?\\s*(?:ב|עם\\s*)-?${quoted}`, 'u'),
  ],
  closing: [
    new RegExp(
      `(?:end|finish|close)\\s+(?:every|each|all|your)?\\s*(?:answers?|responses?|replies|reply|messages?)?\\s*with\\s+${quoted}`,
      'iu',
    ),
    new RegExp(`(?:sign[\\s-]?off|closing\\s+line|signature)\\s*(?:with|:|is|-)?\\s*${quoted}`, 'iu'),
    new RegExp(`(?:סיים|סיימו|תסיים|חתום|חתמו)\\s+(?:כל\\s+)?(?:תשובה|תשובות|הודעה)?\\s*(?:ב|עם\\s*)-?${quoted}`, 'u'),
    new RegExp(`(?:חתימה|שורת\\s+סיום)\\s*:?\\s*${quoted}`, 'u'),
  ],
  bullets: /bullet|bulleted|list\s+format|as\s+a\s+list|תבליט|ברשימה|רשימת\s+נקודות|נקודות/iu,
};

/** The readable rules of the active guidelines (inactive ones do nothing). Later guidelines win on opening and closing. */
export function readGuidelineRules(
  guidelines: readonly Pick<GuidelineFields, 'instructions' | 'category'>[],
): GuidelineRules {
  const rules: GuidelineRules = { replacements: [], opening: null, closing: null, bullets: false };
  for (const { instructions } of guidelines) {
    for (const pattern of patterns.insteadOf)
      for (const m of instructions.matchAll(pattern)) rules.replacements.push({ to: m[1]!.trim(), from: m[2]!.trim() });
    for (const pattern of patterns.reversed)
      for (const m of instructions.matchAll(pattern)) rules.replacements.push({ from: m[1]!.trim(), to: m[2]!.trim() });
    for (const pattern of patterns.opening) {
      const m = pattern.exec(instructions);
      if (m) rules.opening = m[1]!.trim();
    }
    for (const pattern of patterns.closing) {
      const m = pattern.exec(instructions);
      if (m) rules.closing = m[1]!.trim();
    }
    if (patterns.bullets.test(instructions)) rules.bullets = true;
  }
  rules.replacements = rules.replacements.filter((r) => r.from && r.from !== r.to);
  return rules;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces a phrase where it stands as whole words (any case for Latin letters, keeping a leading capital). */
function replacePhrase(text: string, from: string, to: string): string {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(from)}(?![\\p{L}\\p{N}])`, 'giu');
  return text.replace(pattern, (found) =>
    found[0] !== found[0]!.toLowerCase() && to[0] ? to[0].toUpperCase() + to.slice(1) : to,
  );
}

/** The redirect command line of sales mode must stay the answer's last line, untouched. */
const REDIRECT_LINE = /^\s*\[?REDIRECT[:\]].*$/im;

/** Applies the rules to a finished answer: phrases, then bullets, opening and closing line. Lines that are commands are left alone. */
export function applyGuidelineRules(text: string, rules: GuidelineRules): string {
  const lines = text.split('\n');
  const commandAt = lines.findIndex((line) => REDIRECT_LINE.test(line));
  const before = commandAt === -1 ? lines : lines.slice(0, commandAt);
  // The line that introduces the link ("You can continue here:") belongs with it: the sign-off goes above
  // it, never between it and the Visit Link button the command becomes (issue 22 item 5).
  let leadAt = before.length;
  while (commandAt !== -1 && leadAt > 0 && !before[leadAt - 1]!.trim()) leadAt--;
  if (commandAt === -1 || !before[leadAt - 1]?.trim().endsWith(':')) leadAt = before.length;
  else leadAt--;
  const command = [
    ...before.slice(leadAt).filter((line) => line.trim()),
    ...(commandAt === -1 ? [] : lines.slice(commandAt)),
  ];
  let body = before.slice(0, leadAt).join('\n');
  for (const { from, to } of rules.replacements) body = replacePhrase(body, from, to);
  if (rules.bullets) {
    body = body
      .split(/\n{2,}/)
      .map((paragraph) => {
        if (/^\s*[-•*]\s/m.test(paragraph)) return paragraph;
        // Sentences become bullets; a line that introduces something ("…:") stays a line of its own.
        const lines = paragraph.split('\n').map((line) =>
          line.trim().endsWith(':')
            ? [line]
            : line
                .split(/(?<=[.!?])[ \t]+(?=\S)/u)
                .map((s) => s.trim())
                .filter(Boolean),
        );
        const sentences = lines.filter((line) => !line[0]?.trim().endsWith(':')).flat().length;
        if (sentences < 2) return paragraph;
        return lines
          .map((line) =>
            line.length === 1 && line[0]!.trim().endsWith(':') ? line[0] : line.map((s) => `- ${s}`).join('\n'),
          )
          .join('\n');
      })
      .join('\n\n');
  }
  if (rules.opening && !body.trimStart().startsWith(rules.opening))
    body = body.trim() ? `${rules.opening}\n\n${body}` : rules.opening;
  if (rules.closing && !body.trimEnd().endsWith(rules.closing))
    body = body.trim() ? `${body.trimEnd()}\n\n${rules.closing}` : rules.closing;
  return [body, ...command].join('\n').trimEnd();
}
