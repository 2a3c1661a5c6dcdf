import type { Actor, AllPosition, KesherEvent } from '@kesher/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, type Registry } from 'prom-client';
import type { AwaitReadModels } from '../platform/projections/read-model-progress.js';
import type { CommandContext, CommandHandler, HandledCommand } from '../platform/commands/command-handler.js';
import type { Decider } from '../platform/commands/decider.js';

export const commandContext = (request: FastifyRequest, clock: () => Date): CommandContext => ({
  actor: request.account ? { kind: 'account', id: request.account.id } : { kind: 'visitor', id: request.ip },
  correlationId: request.id,
  now: clock(),
});

/** The answer's header saying its write is in the log but the read models had not applied it yet. */
export const CONSISTENCY_HEADER = 'kesher-consistency';
const PENDING_METRIC = 'kesher_read_your_writes_pending_total';
/** Requests whose read-your-writes wait ran out; weak, so a request is forgotten with its answer. */
const pending = new WeakSet<FastifyRequest>();

/**
 * A write whose read-your-writes wait ran out: the events are committed (the write is not to be sent
 * again), but a read of the read models may not show them yet. The answer then says so
 * (`Kesher-Consistency: pending`, counted in `kesher_read_your_writes_pending_total`) and the log says
 * which request, instead of answering as if the change were visible. Call it from any path that waits
 * for read models on a request's behalf; the caller must then answer from what the write decided, not
 * from a read model.
 */
export function readModelsPending(request: FastifyRequest, position: AllPosition, eventTypes?: readonly string[]) {
  pending.add(request);
  request.log.warn(
    { correlationId: request.id, position: `${position.commit}:${position.prepare}`, eventTypes },
    'read models had not applied this write when the wait ran out; answered with Kesher-Consistency: pending',
  );
}

export const isReadModelsPending = (request: FastifyRequest) => pending.has(request);

/** Sets the header on answers to requests marked pending, and counts them. */
export const consistencyPlugin = fp(async (app: FastifyInstance, options: { registry?: Registry }) => {
  const registry = options.registry;
  const counter = registry
    ? ((registry.getSingleMetric(PENDING_METRIC) as Counter | undefined) ??
      new Counter({
        name: PENDING_METRIC,
        help: 'Writes answered before the read models applied them (read-your-writes wait ran out)',
        registers: [registry],
      }))
    : undefined;
  app.addHook('onSend', async (request, reply, payload) => {
    if (!pending.has(request)) return payload;
    reply.header(CONSISTENCY_HEADER, 'pending');
    // A browser client on another origin may read the header only when it is exposed.
    const exposed = reply.getHeader('access-control-expose-headers');
    reply.header(
      'access-control-expose-headers',
      exposed ? `${String(exposed)}, ${CONSISTENCY_HEADER}` : CONSISTENCY_HEADER,
    );
    counter?.inc();
    return payload;
  });
});

/**
 * How a route runs a command: the request's actor and id become the events' metadata, and the answer
 * waits until the read models have applied the new events, so the client's next read shows them. When
 * that wait runs out the result says `readModelsCurrent: false` and the answer carries
 * `Kesher-Consistency: pending` (see readModelsPending): the route must then answer from the result
 * (its state and events), not read the read models as if they had the write.
 */
export function createCommandRunner(deps: {
  handle: CommandHandler;
  awaitReadModels: AwaitReadModels;
  clock: () => Date;
}) {
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
  ): Promise<HandledCommand<State, Event> & { readModelsCurrent: boolean }> {
    const context = commandContext(request, deps.clock);
    const result = await deps.handle(decider, streamId, command, actor ? { ...context, actor } : context);
    if (!result.appended || options.awaitReadModels === false)
      return { ...result, readModelsCurrent: !result.appended };
    const eventTypes = result.events.map((event) => event.type);
    const applied = await deps.awaitReadModels(result.appended.position, eventTypes);
    if (!applied) readModelsPending(request, result.appended.position, eventTypes);
    return { ...result, readModelsCurrent: applied };
  };
}
export type CommandRunner = ReturnType<typeof createCommandRunner>;
