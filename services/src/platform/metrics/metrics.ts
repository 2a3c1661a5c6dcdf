import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';

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
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
