import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../../platform/config/config.js';
import { composeAnalytics } from '../compose-analytics.js';
import { typeDefs } from './analytics-graphql.js';
import { sdlFromZod } from './sdl-from-zod.js';

describe('GraphQL types from the contracts', () => {
  it('turns zod objects, arrays, enums, nullables, ints and floats into GraphQL types', () => {
    const Kind = z.enum(['pricing', 'sales']);
    const sdl = sdlFromZod(
      {
        Report: z.object({
          total: z.number().int(),
          share: z.number().nullable(),
          kind: Kind,
          rows: z.array(z.object({ url: z.string(), ok: z.boolean().default(true) })),
          note: z.string().optional(),
        }),
      },
      new Map([[Kind, 'Kind']]),
    );
    expect(sdl).toBe(
      [
        'type Report {\n  total: Int!\n  share: Float\n  kind: Kind!\n  rows: [ReportRows!]!\n  note: String\n}',
        'enum Kind {\n  pricing\n  sales\n}',
        'type ReportRows {\n  url: String!\n  ok: Boolean!\n}',
      ].join('\n\n'),
    );
    expect(() => sdlFromZod({ Bad: z.object({ when: z.date() }) })).toThrow(/no GraphQL type for a zod date/);
  });

  it('builds a valid schema from the analytics DTOs', () => {
    const schema = buildSchema(typeDefs);
    expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(
      expect.arrayContaining([
        'dashboard',
        'assistant_performance',
        'queries',
        'keywords',
        'sales_analytics',
        'violations',
        'health',
      ]),
    );
    expect(schema.getSubscriptionType()!.getFields().live_counters).toBeDefined();
  });

  it('serves GraphiQL to everyone only when NODE_ENV=development is set, to operators otherwise (make start leaves NODE_ENV unset)', () => {
    const wiring = (development: boolean) =>
      composeAnalytics({
        development,
        sql: {} as never,
        handle: (() => undefined) as never,
        readModels: {} as never,
        headPosition: async () => ({ commit: 0n, prepare: 0n }),
        awaitReadModels: async () => true,
        clock: () => new Date(),
        planOf: (async () => undefined) as never,
        storageUsed: async () => 0,
        filesOf: async () => 0,
        authenticate: async () => undefined,
      });
    expect(wiring(true).app.graphql.graphiql).toBe('everyone');
    expect(wiring(false).app.graphql.graphiql).toBe('operators');
    expect(loadConfig({}).NODE_ENV).toBeUndefined();
  });
});
