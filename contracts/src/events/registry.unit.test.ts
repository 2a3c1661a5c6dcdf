import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventSchemaError, upcast, validateNewEvent, type EventDefinition } from './registry.js';

describe('event registry', () => {
  it('validates new events against their schema and stamps the current version', () => {
    const valid = validateNewEvent('AssistantDeleted', { assistantId: 'a1' });
    expect(valid).toEqual({ data: { assistantId: 'a1' }, schemaVersion: 1 });
    expect(() => validateNewEvent('AssistantDeleted', { assistantId: '' })).toThrow(EventSchemaError);
    expect(() => validateNewEvent('NoSuchEvent', {})).toThrow(/unknown event type/);
  });

  it('lifts stored data through every upcaster up to the current version', () => {
    // A made-up history: v1 had `title`, v2 renamed it to `name`, v3 added `tags`.
    const registry: Record<string, EventDefinition> = {
      ThingNamed: {
        version: 3,
        schema: z.object({ name: z.string(), tags: z.array(z.string()) }),
        upcasters: {
          1: (data) => {
            const { title, ...rest } = data as { title: string };
            return { ...rest, name: title };
          },
          2: (data) => ({ ...(data as object), tags: [] }),
        },
      },
    };
    expect(upcast('ThingNamed', { title: 'Old' }, 1, registry)).toEqual({ name: 'Old', tags: [] });
    expect(upcast('ThingNamed', { name: 'Mid' }, 2, registry)).toEqual({ name: 'Mid', tags: [] });
    expect(upcast('ThingNamed', { name: 'New', tags: ['x'] }, 3, registry)).toEqual({ name: 'New', tags: ['x'] });
    expect(() => upcast('ThingNamed', {}, 0, registry)).toThrow(/no upcaster from version 0/);
    expect(upcast('Unknown', { a: 1 }, 1, registry)).toEqual({ a: 1 });
  });
});
