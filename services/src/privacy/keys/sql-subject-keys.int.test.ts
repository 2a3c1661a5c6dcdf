import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgSql } from '../../platform/sql/pg.sql.js';
import type { Sql } from '../../platform/sql/sql.port.js';
import { createTestDatabase, postgresAvailability } from '../../testing/test-database.js';
import { createSqlSubjectKeys } from './sql-subject-keys.js';

const gate = await postgresAvailability();

describe.skipIf(!gate.available)('the subject key store (Postgres)', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: Sql;
  const serverKey = randomBytes(32);
  beforeAll(async () => {
    db = await createTestDatabase();
    sql = createPgSql({ connectionString: db.url, max: 10 });
  });
  afterAll(async () => {
    await sql?.close();
    await db?.drop();
  });

  it('gives two processes that make the same new key at once the same key, never none', async () => {
    for (let round = 0; round < 40; round++) {
      const a = createSqlSubjectKeys({ sql, serverKey });
      const b = createSqlSubjectKeys({ sql, serverKey });
      const keyId = `thread:race-${round}`;
      await Promise.all([a.ensure([{ keyId, ownerId: 'o' }]), b.ensure([{ keyId, ownerId: 'o' }])]);
      expect(a.peek(keyId), keyId).toBeInstanceOf(Buffer);
      expect(a.peek(keyId)!.equals(b.peek(keyId)!)).toBe(true);
    }
  });

  it('keeps the keys sealed at rest, and an erased key erased for a later event', async () => {
    const keys = createSqlSubjectKeys({ sql, serverKey });
    await keys.ensure([{ keyId: 'account:rest', ownerId: 'rest' }]);
    const key = keys.peek('account:rest')!;
    const { rows } = await sql.query<{ sealed_key: string }>(
      `SELECT sealed_key FROM privacy_subject_keys WHERE key_id = 'account:rest'`,
    );
    expect(rows[0]!.sealed_key).not.toContain(key.toString('base64'));
    await keys.shred(['account:rest'], { ownerId: 'rest' });
    const later = createSqlSubjectKeys({ sql, serverKey });
    await later.ensure([{ keyId: 'account:rest', ownerId: 'rest' }]);
    expect(later.peek('account:rest')).toBeNull();
  });
});
