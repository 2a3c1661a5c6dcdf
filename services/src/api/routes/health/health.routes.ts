import { positionToString, type AllPosition } from '@kesher/contracts';
import type { FastifyPluginAsync } from 'fastify';

export interface HealthDeps {
  adapters: { eventStore: string; readModels: string; bus: string };
  projectionPositions: () => Record<string, AllPosition> | Promise<Record<string, AllPosition>>;
  headPosition: () => Promise<AllPosition>;
}

export const healthRoutes =
  (deps: HealthDeps): FastifyPluginAsync =>
  async (app) => {
    app.get('/health', async () => {
      const head = await deps.headPosition();
      const projections = Object.fromEntries(
        Object.entries(await deps.projectionPositions()).map(([name, position]) => [
          name,
          {
            position: positionToString(position),
            behind_positions: Math.max(0, Number(head.prepare - position.prepare)),
          },
        ]),
      );
      return { status: 'ok', adapters: deps.adapters, head: positionToString(head), projections };
    });
  };
