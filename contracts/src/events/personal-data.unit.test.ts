import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { personalData, personalDataOf } from './personal-data.js';
import { eventDefinitions } from './registry.js';

/** The zod schemas a path segment can lead to (several for a union: a field of any variant counts). */
function childrenOf(schema: z.ZodType, segment: string): z.ZodType[] {
  const def = (schema as unknown as { def: { type: string } }).def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return childrenOf((schema as unknown as z.ZodOptional<z.ZodType>).unwrap(), segment);
    case 'object': {
      const field = (schema as z.ZodObject).shape[segment];
      return field ? [field as z.ZodType] : [];
    }
    case 'union':
      return (schema as unknown as z.ZodUnion<z.ZodType[]>).options.flatMap((option) => childrenOf(option, segment));
    case 'array':
      return [];
    default:
      return [];
  }
}

function elementOf(schema: z.ZodType): z.ZodType | undefined {
  const def = (schema as unknown as { def: { type: string } }).def;
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')
    return elementOf((schema as unknown as z.ZodOptional<z.ZodType>).unwrap());
  return def.type === 'array' ? (schema as z.ZodArray<z.ZodType>).element : undefined;
}

function pathExists(schema: z.ZodType, path: string): boolean {
  let current: z.ZodType[] = [schema];
  for (const raw of path.split('.')) {
    const isArray = raw.endsWith('[]');
    const segment = isArray ? raw.slice(0, -2) : raw;
    current = current.flatMap((s) => childrenOf(s, segment));
    if (isArray) current = current.map(elementOf).filter((s): s is z.ZodType => s !== undefined);
    if (current.length === 0) return false;
  }
  return true;
}

describe('personal data declarations', () => {
  it('cover every event type, and nothing that is not one', () => {
    // A new event type must say whether it holds personal data before it can be stored.
    expect(Object.keys(personalData).sort()).toEqual(Object.keys(eventDefinitions).sort());
  });

  it('name fields that exist in their event schema, and give a reason when there are none', () => {
    for (const [type, entry] of Object.entries(personalData)) {
      if ('none' in entry) {
        expect(entry.none.length, type).toBeGreaterThan(0);
        continue;
      }
      expect(entry.fields.length, type).toBeGreaterThan(0);
      const schema = eventDefinitions[type as keyof typeof eventDefinitions].schema;
      for (const path of entry.fields) expect(pathExists(schema, path), `${type}.${path}`).toBe(true);
    }
  });

  it('declare the data the issue lists as personal', () => {
    expect(personalDataOf('AccountRegistered')?.fields).toEqual(
      expect.arrayContaining(['email', 'passwordHash', 'displayName']),
    );
    expect(personalDataOf('MessagePosted')?.fields).toContain('text');
    expect(personalDataOf('ChannelMessageReceived')?.fields).toEqual(
      expect.arrayContaining(['chatId', 'senderName', 'text']),
    );
    expect(personalDataOf('ThreadStarted')?.fields).toContain('contact.name');
    expect(personalDataOf('AssistantDeleted')).toBeNull();
  });
});
