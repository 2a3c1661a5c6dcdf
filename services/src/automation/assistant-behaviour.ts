import type {
  ActionFields,
  ExternalEndpointStored,
  GuidelineFields,
  RecordedEvent,
  WorkflowFields,
} from '@kesher/contracts';
import type { AutomationQueries, Saved } from '@kesher/projections/automation/automation.queries';
import { createWorkflowIndexCache, type WorkflowIndexCache } from './workflow-index-cache.js';

/**
 * What an owner's automation asks of one run: the active guidelines (by category), the workflow in force
 * (fired by this message, or continuing from an earlier turn until its steps are done), the API actions
 * the run may call as tools, and the knowledge sources a knowledge-base action restricts retrieval to.
 * Loaded once per run from the automation read model and handed to the provider as it is.
 */
export interface RunnableAction {
  id: string;
  title: string;
  fields: ActionFields;
  /** The named endpoint resolved for this assistant (null when the action calls a full URL). */
  endpoint: ExternalEndpointStored | null;
}

export interface BehaviourWorkflow {
  id: string;
  title: string;
  instructions: string;
  score: number;
  matchedOn: 'phrase' | 'trigger' | 'continued';
  matchedPhrases: string[];
  /** The workflow's API actions (its steps) and whether each already ran successfully in this conversation. */
  actions: (RunnableAction & { done: boolean })[];
}

export interface AssistantBehaviour {
  guidelines: { category: GuidelineFields['category']; title: string; instructions: string }[];
  workflow: BehaviourWorkflow | null;
  /** API actions offered to a model as tools (the workflow's first). */
  tools: RunnableAction[];
  /** Set when a knowledge-base action of the workflow restricts this turn's retrieval to these addresses. */
  knowledgeSources: string[] | null;
}

export const emptyBehaviour = (): AssistantBehaviour => ({
  guidelines: [],
  workflow: null,
  tools: [],
  knowledgeSources: null,
});

/** A workflow holds for at most this many visitor turns after it fired, when it has no actions to finish. */
export const WORKFLOW_TURNS = 3;
/** Tools offered to a model at most (OpenAI accepts 128; a short list chooses better). */
const MAX_TOOLS = 16;

export interface BehaviourInput {
  ownerId: string;
  assistantId: string;
  question: string;
  /** The thread's stored events, oldest first (WorkflowFired, ActionCalled and messages are read). */
  threadEvents: readonly RecordedEvent[];
}

/** What the thread says about the workflow in force: the last one fired, with the visitor turns since and the actions done since. */
function workflowInForce(events: readonly RecordedEvent[]) {
  let fired: { workflowId: string; turnsSince: number; done: Set<string> } | null = null;
  for (const event of events) {
    if (event.type === 'WorkflowFired')
      fired = { workflowId: (event.data as { workflowId: string }).workflowId, turnsSince: 0, done: new Set() };
    else if (fired && event.type === 'MessagePosted' && (event.data as { role: string }).role === 'user')
      fired.turnsSince++;
    else if (fired && event.type === 'ActionCalled' && (event.data as { success: boolean }).success)
      fired.done.add((event.data as { actionId: string }).actionId);
  }
  return fired;
}

export function createBehaviourLoader(deps: { queries: AutomationQueries; indexes?: WorkflowIndexCache }) {
  /** Per owner: the index of its workflows, rebuilt (in slices, once for concurrent runs) when they change. */
  const indexes = deps.indexes ?? createWorkflowIndexCache();

  return async function load(input: BehaviourInput): Promise<AssistantBehaviour> {
    // One statement per run for all four (every chat turn pays it, owners without automation too).
    const {
      workflows,
      guidelines,
      actions,
      externalApi: external,
    } = await deps.queries.forRun(input.ownerId, input.assistantId);
    const endpoints = external?.endpoints ?? [];
    const runnable = (action: Saved<ActionFields>): RunnableAction | null => {
      if (action.fields.type !== 'api') return null;
      const endpoint = action.fields.endpointName
        ? (endpoints.find((e) => e.name.toLowerCase() === action.fields.endpointName!.toLowerCase()) ?? null)
        : null;
      // An action calling a name this assistant has not configured cannot run here.
      if (action.fields.endpointName && !endpoint) return null;
      return { id: action.id, title: action.fields.title, fields: action.fields, endpoint };
    };
    const actionsById = new Map(actions.map((a) => [a.id, a]));

    let workflow: BehaviourWorkflow | null = null;
    const match = workflows.length ? (await indexes.index(input.ownerId, workflows)).match(input.question) : null;
    const inForce = workflowInForce(input.threadEvents);
    const build = (
      saved: Saved<WorkflowFields>,
      how: Pick<BehaviourWorkflow, 'score' | 'matchedOn' | 'matchedPhrases'>,
      done: Set<string>,
    ): BehaviourWorkflow => ({
      id: saved.id,
      title: saved.fields.title,
      instructions: saved.fields.instructions,
      ...how,
      actions: saved.fields.linkedActions.flatMap((id) => {
        const action = actionsById.get(id);
        const ready = action ? runnable(action) : null;
        return ready ? [{ ...ready, done: done.has(id) }] : [];
      }),
    });
    if (match?.fired) {
      const saved = workflows.find((w) => w.id === match.fired!.workflowId)!;
      const continuing = inForce?.workflowId === saved.id ? inForce.done : new Set<string>();
      workflow = build(
        saved,
        { score: match.fired.score, matchedOn: match.fired.matchedOn, matchedPhrases: match.fired.matchedPhrases },
        continuing,
      );
    } else if (inForce) {
      // The workflow fired earlier holds on until its steps are done: its actions ran, or (without actions) a few turns passed.
      const saved = workflows.find((w) => w.id === inForce.workflowId);
      if (saved) {
        const candidate = build(saved, { score: 0, matchedOn: 'continued', matchedPhrases: [] }, inForce.done);
        const stepsDone =
          candidate.actions.length > 0 ? candidate.actions.every((a) => a.done) : inForce.turnsSince > WORKFLOW_TURNS;
        if (!stepsDone) workflow = candidate;
      }
    }

    const active = guidelines.filter((g) => g.fields.active);
    const tools: RunnableAction[] = [];
    const offer = (action: RunnableAction | null) => {
      if (action && !tools.some((t) => t.id === action.id) && tools.length < MAX_TOOLS) tools.push(action);
    };
    for (const action of workflow?.actions ?? []) offer(action);
    for (const guideline of active)
      for (const id of guideline.fields.linkedActions)
        offer(actionsById.get(id) ? runnable(actionsById.get(id)!) : null);
    for (const action of actions) offer(runnable(action));

    const firedSaved = workflow ? workflows.find((w) => w.id === workflow!.id) : undefined;
    const kbSources = (firedSaved?.fields.linkedActions ?? []).flatMap((id) => {
      const action = actionsById.get(id);
      return action?.fields.type === 'knowledge_base' ? action.fields.kbSources.map((s) => s.url) : [];
    });

    return {
      guidelines: active.map((g) => ({
        category: g.fields.category,
        title: g.fields.title,
        instructions: g.fields.instructions,
      })),
      workflow,
      tools,
      knowledgeSources: kbSources.length ? kbSources : null,
    };
  };
}
export type BehaviourLoader = ReturnType<typeof createBehaviourLoader>;

/** Keeps the passages of the given sources (same address, or under it); the turn's knowledge-base action restricts retrieval to them. */
export function restrictToSources<Passage extends { sourceUrl: string | null }>(
  passages: readonly Passage[],
  sources: readonly string[],
): Passage[] {
  const roots = sources.map((s) => s.replace(/[#?].*$/, '').replace(/\/+$/, ''));
  return passages.filter(
    (p) =>
      p.sourceUrl !== null &&
      roots.some(
        (root) =>
          p.sourceUrl === root || p.sourceUrl!.replace(/\/+$/, '') === root || p.sourceUrl!.startsWith(`${root}/`),
      ),
  );
}
