import type { Actor, KesherEvent } from '@kesher/contracts';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import type { FastifyRequest } from 'fastify';
import type { CommandContext, CommandHandler, HandledCommand } from '../platform/commands/command-handler.js';
import type { Decider } from '../platform/commands/decider.js';

export const commandContext = (request: FastifyRequest, clock: () => Date): CommandContext => ({
  actor: request.account ? { kind: 'account', id: request.account.id } : { kind: 'visitor', id: request.ip },
  correlationId: request.id,
  now: clock(),
});

/**
 * How a route runs a command: the request's actor and id become the events' metadata, and the answer
 * waits until the read models have applied the new events, so the client's next read shows them.
 */
export function createCommandRunner(deps: { handle: CommandHandler; awaitReadModels: AwaitReadModels; clock: () => Date }) {
  return async function run<State, Command, Event extends KesherEvent>(
    request: FastifyRequest,
    decider: Decider<State, Command, Event>,
    streamId: string,
    command: Command,
    /** Who acts, when the request knows better than its bearer token (a visitor's session). */
    actor?: Actor,
    /**
     * `awaitReadModels: false` answers as soon as the events are in the log; the caller then owns
     * read-your-writes (the chat's write marks make the next read wait instead).
     */
    options: { awaitReadModels?: boolean } = {},
  ): Promise<HandledCommand<State, Event>> {
    const context = commandContext(request, deps.clock);
    const result = await deps.handle(decider, streamId, command, actor ? { ...context, actor } : context);
    if (result.appended && options.awaitReadModels !== false) await deps.awaitReadModels(result.appended.position, result.events.map((event) => event.type));
    return result;
  };
}
export type CommandRunner = ReturnType<typeof createCommandRunner>;
