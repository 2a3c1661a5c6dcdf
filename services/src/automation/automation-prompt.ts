import { guidelineCategoryLabels } from '@kesher/contracts';
import type { AssistantBehaviour, RunnableAction } from './assistant-behaviour.js';

/**
 * The owner's automation as a model reads it: active guidelines grouped by category, the workflow in
 * force with its instructions and remaining steps, and (as tools) the API actions it may call.
 */
export function automationBlock(behaviour: AssistantBehaviour | undefined): string[] {
  if (!behaviour) return [];
  const lines: string[] = [];
  if (behaviour.guidelines.length) {
    const byCategory = new Map<string, string[]>();
    for (const g of behaviour.guidelines) {
      const label = guidelineCategoryLabels[g.category].en;
      byCategory.set(label, [...(byCategory.get(label) ?? []), `- ${g.title}: ${g.instructions.trim()}`]);
    }
    lines.push(
      `GUIDELINES from the owner (follow them in every answer):\n${[...byCategory].map(([label, items]) => `${label}:\n${items.join('\n')}`).join('\n')}`,
    );
  }
  const workflow = behaviour.workflow;
  if (workflow) {
    const why =
      workflow.matchedOn === 'continued'
        ? 'it is still in progress from an earlier message'
        : `the visitor's message matched ${workflow.matchedOn === 'trigger' ? 'its trigger' : `"${workflow.matchedPhrases[0] ?? ''}"`}`;
    const steps = workflow.actions.length
      ? `\nIts actions (call them as tools when you have their inputs; ask the visitor for missing ones): ${workflow.actions.map((a) => `${a.title}${a.done ? ' (done)' : ''}`).join(', ')}`
      : '';
    lines.push(
      `WORKFLOW "${workflow.title}" is active (${why}). Follow its instructions:\n${workflow.instructions.trim()}${steps}`,
    );
  }
  if (behaviour.tools.length)
    lines.push('If a tool call fails, tell the visitor plainly that the action failed; never invent its result.');
  return lines;
}

/** A tool's name as Chat Completions accepts it (letters, digits, _ and -; at most 64). */
export const toolName = (action: Pick<RunnableAction, 'id'>) =>
  `action_${action.id}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);

/** An API action as a Chat Completions function tool: its inputs are the parameters. */
export function toolDefinition(action: RunnableAction) {
  const properties: Record<string, Record<string, unknown>> = {};
  for (const input of action.fields.apiInputs) {
    const type = input.type === 'number' ? 'number' : input.type === 'boolean' ? 'boolean' : 'string';
    properties[input.name] = {
      type,
      ...(input.description ? { description: input.description } : {}),
      ...(input.type === 'email'
        ? { format: 'email' }
        : input.type === 'date'
          ? { format: 'date' }
          : input.type === 'url'
            ? { format: 'uri' }
            : {}),
    };
  }
  return {
    type: 'function' as const,
    function: {
      name: toolName(action),
      description: [action.title, action.fields.description].filter(Boolean).join(' — ').slice(0, 1_000),
      parameters: {
        type: 'object',
        properties,
        required: action.fields.apiInputs.filter((i) => i.required).map((i) => i.name),
        additionalProperties: false,
      },
    },
  };
}
