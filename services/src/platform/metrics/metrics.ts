import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process, created in the composition root and handed to whoever reports. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    projectionLag: new Gauge({
      name: 'kesher_projection_lag_positions',
      help: 'Global log positions between the head of $all and the projection checkpoint (0 = caught up)',
      labelNames: ['projection'],
      registers: [registry],
    }),
    projectionLagSeconds: new Gauge({
      name: 'kesher_projection_lag_seconds',
      help: 'Age of the newest event the projection applied, while it is behind; 0 when caught up',
      labelNames: ['projection'],
      registers: [registry],
    }),
    relayLag: new Gauge({
      name: 'kesher_relay_lag_positions',
      help: 'Global log positions between the head of $all and the relay checkpoint',
      registers: [registry],
    }),
    busMessagesParked: new Counter({
      name: 'kesher_bus_messages_parked_total',
      help: 'Messages a consumer group gave up on after its handler failed (or its process died) too often; kept as dead letters',
      labelNames: ['group', 'topic'],
      registers: [registry],
    }),
    busMessages: new Counter({
      name: 'kesher_bus_messages_total',
      help: 'Messages a consumer group fetched: handed to its handler (outcome=handled), or skipped unread because it does not handle their event type (outcome=skipped)',
      labelNames: ['group', 'topic', 'outcome'],
      registers: [registry],
    }),
    busHandlerFailures: new Counter({
      name: 'kesher_bus_handler_failures_total',
      help: 'Handler attempts that threw; each is retried after a back-off until the message is parked',
      labelNames: ['group', 'topic'],
      registers: [registry],
    }),
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
