import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NewEvent } from '@kesher/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaModules } from '../../main/schema-modules.js';
import { createSqlSubjectKeys } from '../../privacy/keys/sql-subject-keys.js';
import { runMigrations } from '../sql/migrations.js';
import { createPgliteSql } from '../sql/pglite.sql.js';
import { createPersonalDataCodec } from './personal-data.codec.js';
import { withPersonalData } from './personal-data.event-store.js';
import { withEventSchemas } from './schema-checked.event-store.js';
import { createSqlEventStore } from './sql-event-store.js';

/** Every file under `dir` that holds `needle` (bytes), as a search of a copied data directory would find it. */
function filesHolding(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...filesHolding(path, needle));
    else if (readFileSync(path).includes(bytes)) found.push(path);
  }
  return found;
}

/**
 * The embedded default's files (PGlite's data directory: heap, WAL): the log's personal fields never
 * reach them in clear — not before an erasure (they are sealed on the way in), so not after it either.
 */
describe('personal data in the embedded database files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kesher-pii-files-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds no e-mail, message text or customer name in clear in any PGlite file', async () => {
    const run = randomBytes(4).toString('hex');
    const secrets = { email: `files-${run}@example.com`, text: `files text ${run}`, name: `Filesname${run}` };
    const sql = await createPgliteSql({ dataDir: join(dir, 'pglite') });
    await runMigrations(sql, schemaModules({ sqlEventStore: true }));
    const keys = createSqlSubjectKeys({ sql, serverKey: randomBytes(32) });
    const store = withEventSchemas(withPersonalData(await createSqlEventStore({ sql }), createPersonalDataCodec(keys)));
    const meta = () => ({
      eventId: randomUUID(),
      correlationId: 'c',
      causationId: 'c',
      actor: { kind: 'system' as const, id: 'files' },
      timestamp: new Date().toISOString(),
      schemaVersion: 1,
    });
    const events: [string, NewEvent][] = [
      [
        'account-files',
        {
          type: 'AccountRegistered',
          data: {
            accountId: 'acc',
            email: secrets.email,
            displayName: null,
            passwordHash: 'h',
            provider: 'password',
            photoUrl: null,
          },
          metadata: meta(),
        },
      ],
      [
        'thread-files',
        {
          type: 'MessagePosted',
          data: {
            messageId: 'm',
            threadId: 't',
            role: 'user',
            text: secrets.text,
            channel: 'telegram',
            language: 'en',
            runId: null,
          },
          metadata: meta(),
        },
      ],
      [
        'channelinbound-files',
        {
          type: 'ChannelMessageReceived',
          data: {
            integrationId: 'i',
            assistantId: 'a',
            ownerId: 'acc',
            kind: 'telegram',
            chatId: '501',
            senderName: secrets.name,
            externalMessageId: 'e',
            text: secrets.text,
          },
          metadata: meta(),
        },
      ],
    ];
    for (const [stream, event] of events) await store.appendToStream(stream, [event], { expectedRevision: 'any' });
    expect(((await store.readStream('thread-files'))[0]!.data as { text: string }).text).toBe(secrets.text);
    await keys.shred([keys.keyIdOf({ kind: 'account', accountId: 'acc' })], { ownerId: 'acc' });
    await keys.shred([keys.keyIdOf({ kind: 'thread', threadId: 't' })]);
    await sql.query('CHECKPOINT');
    await store.close();
    await sql.close();
    for (const secret of Object.values(secrets)) expect(filesHolding(dir, secret), secret).toEqual([]);
  }, 600_000);
});
