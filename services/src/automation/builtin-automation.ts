import { randomBytes } from 'node:crypto';
import { automationMessages } from '@kesher/contracts';
import type { AnswerLanguage, AnswerRequest, ToolResult } from '../chat/index.js';
import type { AssistantBehaviour } from './assistant-behaviour.js';
import { applyGuidelineRules, readGuidelineRules } from './guideline-rules.js';
import { readInputs } from './read-inputs.js';

/**
 * The built-in engine's share of automation, applied deterministically around its grounded answer:
 * the workflow in force leads (the reply its instructions quote, e.g. `Say: "…"`), its next API action
 * runs once its required inputs can be read from the conversation — its result quoted, a failure said
 * plainly — or the visitor is asked for the inputs missing; then the active guidelines' readable rules
 * (preferred phrases, bullets, opening and closing lines) shape the whole text.
 */
const words = {
  en: {
    needs: (title: string, names: string) => `To continue with “${title}”, please send: ${names}.`,
    result: (title: string) => `${title}:`,
  },
  he: {
    needs: (title: string, names: string) => `כדי להמשיך עם "${title}", נא לשלוח: ${names}.`,
    result: (title: string) => `${title}:`,
  },
} as const;
const wordsFor = (language: AnswerLanguage) => (language === 'he' ? words.he : words.en);

/** The reply a workflow's instructions quote after say/reply/ask (or Hebrew אמור/ענה/שאל/כתוב), if any. */
export function quotedReply(instructions: string): string | null {
  const m =
    /(?:\b(?:say|reply|respond|answer|ask|tell\s+(?:them|the\s+visitor))\b|אמור|אמרו|תגיד|ענה|ענו|שאל|שאלו|כתוב|כתבו)\s*(?:with|:|-)?\s*["“”„«]([^"“”„»]{1,500})["“”»]/iu.exec(
      instructions,
    );
  return m ? m[1]!.trim() : null;
}

/** An action's JSON result as lines a visitor can read: top-level values, nested ones as compact JSON. */
export function quoteResult(response: unknown): string {
  if (response === null || response === undefined || response === '') return '';
  if (typeof response !== 'object') return String(response).slice(0, 1_000);
  const entries = Array.isArray(response)
    ? response.slice(0, 10).map((item, i) => [String(i + 1), item] as const)
    : Object.entries(response).slice(0, 12);
  return entries
    .map(
      ([key, value]) =>
        `- ${key}: ${typeof value === 'object' && value !== null ? JSON.stringify(value).slice(0, 300) : String(value)}`,
    )
    .join('\n');
}

export interface BuiltinAutomationResult {
  text: string;
  /** True when the knowledge answer was kept (false: the workflow's step replaced a "no answer"). */
  keptKnowledge: boolean;
}

/**
 * The answer text with the run's automation applied. `knowledge` is the engine's grounded answer and
 * `found` whether it quoted the knowledge (a "no answer" text gives way to the workflow's step).
 */
export async function applyBuiltinAutomation(input: {
  request: Pick<AnswerRequest, 'question' | 'history' | 'language' | 'runTools'>;
  behaviour: AssistantBehaviour;
  knowledge: string;
  found: boolean;
}): Promise<BuiltinAutomationResult> {
  const { request, behaviour } = input;
  const say = wordsFor(request.language);
  const parts: string[] = [];
  let stepTaken = false;
  const workflow = behaviour.workflow;
  if (workflow) {
    const lead = quotedReply(workflow.instructions);
    const next = workflow.actions.find((action) => !action.done);
    if (next && request.runTools) {
      const texts = [
        request.question,
        ...[...request.history]
          .reverse()
          .filter((turn) => turn.role === 'user')
          .map((turn) => turn.text),
      ];
      const { values, missing } = readInputs(next.fields, texts);
      if (missing.length === 0) {
        const [result] = await request.runTools([
          { callId: `call_${randomBytes(8).toString('hex')}`, actionId: next.id, arguments: values },
        ]);
        parts.push(describe(result, next.title, request.language));
        stepTaken = true;
      } else {
        if (lead) parts.push(lead);
        parts.push(say.needs(next.title, missing.map((m) => m.description || m.name.replace(/_/g, ' ')).join(', ')));
        stepTaken = true;
      }
    } else if (lead) {
      parts.push(lead);
      stepTaken = true;
    }
  }
  const keptKnowledge = input.found || !stepTaken;
  if (keptKnowledge) parts.push(input.knowledge);
  const text = parts.join('\n\n');
  return {
    text: behaviour.guidelines.length ? applyGuidelineRules(text, readGuidelineRules(behaviour.guidelines)) : text,
    keptKnowledge,
  };
}

function describe(result: ToolResult | undefined, title: string, language: AnswerLanguage): string {
  const failed =
    language === 'he' ? automationMessages.actionFailedInAnswer.he : automationMessages.actionFailedInAnswer.en;
  if (!result || !result.success) return failed(title);
  const quoted = quoteResult(result.response);
  return quoted ? `${wordsFor(language).result(title)}\n${quoted}` : wordsFor(language).result(title);
}
