import { redirectMarker } from '@kesher/contracts';
import type { AnswerRequest } from './answer-provider.port.js';
import { bestSalesPage, showsBuyingIntent } from './sales-pages.js';
import { automationBlock } from '../automation/index.js';

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Earlier turns sent along with the question: enough for follow-ups, bounded so prompts stay small. */
export const HISTORY_TURNS = 6;

const languageName = { he: 'Hebrew', en: 'English', other: 'the language of the question' } as const;

function knowledgeBlock(request: AnswerRequest): string {
  if (request.passages.length === 0) return 'KNOWLEDGE: (none found for this question)';
  const entries = request.passages.map((p, i) => {
    // The owner's own answer to this question (a curated Q&A, issue 26) comes first and says so.
    if (p.curated) return `[${i + 1}] ANSWER FROM THE OWNER to the question "${p.section ?? ''}"\n${p.text}`;
    const origin = [p.filename, p.sourceUrl, p.section].filter(Boolean).join(' — ');
    return `[${i + 1}] ${origin}\n${p.text}`;
  });
  const owners = request.passages.findIndex((p) => p.curated);
  const prefer =
    owners < 0
      ? ''
      : `[${owners + 1}] is the owner's own answer to this question: answer with it, and prefer it over every other passage where they differ.\n`;
  return `KNOWLEDGE:\n${prefer}${entries.join('\n\n')}`;
}

function salesBlock(request: AnswerRequest): string[] {
  const { salesMode } = request.assistant;
  if (!salesMode.enabled) return [];
  const lines = ['SALES MODE is on.'];
  if (salesMode.salesPrompt.trim()) lines.push(`Sales guidance from the owner:\n${salesMode.salesPrompt.trim()}`);
  // The model may only refer to a page Kesher found on the owner's site, never to an address it made up.
  const pages = request.assistant.salesPages ?? [];
  if (pages.length > 0) {
    const list = pages
      .slice(0, 20)
      .map(
        (page) => `- ${page.url}${page.title ? ` — ${page.title}` : ''}${page.category ? ` (${page.category})` : ''}`,
      );
    lines.push(`SALES PAGES of this business (the only addresses you may send a visitor to):\n${list.join('\n')}`);
  }
  const page = showsBuyingIntent(request.question) ? bestSalesPage(request.question, request.passages, pages) : null;
  if (page)
    lines.push(
      `The visitor shows buying intent. End the answer with this line, exactly as written:\n${redirectMarker(page)}`,
    );
  else lines.push('Do not add any redirect line.');
  return lines;
}

/**
 * The Chat Completions messages for one question: the owner's instructions, the grounding rules, the
 * sales rules, the retrieved passages, the recent history and the question. Grounding comes first so that
 * instructions cannot talk the model out of it.
 */
export function buildPrompt(request: AnswerRequest): PromptMessage[] {
  const system = [
    `You are "${request.assistant.name}", an assistant that answers only from the KNOWLEDGE below.`,
    'If the knowledge does not contain the answer, say plainly that you do not have that information; never invent facts, prices, addresses or links.',
    'Cite the passages you used by their number, like [1].',
    `Answer in ${languageName[request.language]}, briefly.`,
    request.assistant.instructions.trim()
      ? `Instructions from the owner:\n${request.assistant.instructions.trim()}`
      : '',
    ...salesBlock(request),
    ...automationBlock(request.behaviour),
    knowledgeBlock(request),
  ].filter(Boolean);
  const history = request.history
    .slice(-HISTORY_TURNS)
    .map((turn): PromptMessage => ({ role: turn.role, content: turn.text }));
  return [{ role: 'system', content: system.join('\n\n') }, ...history, { role: 'user', content: request.question }];
}
