import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventDefinitions } from '@kesher/contracts';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../testing/processes.js';
import { EVENT_SCHEMAS_PATH, eventSchemasDocument, eventSchemasJson } from './event-schemas.js';

describe("the analysts' event schemas", () => {
  it('cover every event type and every topic', () => {
    const document = eventSchemasDocument();
    expect(Object.keys(document.events).sort()).toEqual(Object.keys(eventDefinitions).sort());
    expect(document.topics.map((t) => t.topic)).toEqual(
      expect.arrayContaining(['kesher.thread', 'kesher.limitviolation', 'kesher.trackedquery']),
    );
    expect(document.events.RunCompleted!.data).toMatchObject({
      type: 'object',
      properties: { responseMs: { type: 'number' } },
    });
  });

  it('are what docs/event-schemas.json says (regenerate with `npx tsx services/src/main/event-schemas.main.ts`)', () => {
    expect(readFileSync(join(repoRoot, EVENT_SCHEMAS_PATH), 'utf8')).toBe(eventSchemasJson());
  });
});
