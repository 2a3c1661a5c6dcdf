import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChannelStandIns, type ChannelStandIns } from '../../channels/testing/channel-stand-ins.js';
import { embeddedCompactionOf } from '../../main/compose-privacy-features.js';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.js';
import { freePort } from '../../testing/processes.js';
import { postgresAvailability } from '../../testing/test-database.js';
import { deleteAccount, erasureScenario } from './testing/erasure-scenario.js';

// The harness makes a Postgres test database even when the platform runs on PGlite (unused here).
const gate = await postgresAvailability();

/** Every file under `dir` holding `needle` (bytes), as a search of a copy of the data directory would find it. */
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
 * Issue 24's done-when on the embedded default: the whole backend on PGlite (no DATABASE_URL), the same
 * owner, share-link visitor and Telegram customer; the owner deletes the account; then no file of the
 * PGlite data directory — tables, indexes, TOAST, WAL, anything — holds the e-mail, a message text or the
 * customer's name. The read models held them in clear before (checked first, so the search is shown to
 * find them): their old row versions and the WAL are what the compaction after an erasure removes.
 */
describe.skipIf(!gate.available)(
  `account deletion on the embedded default leaves nothing in the database files${gate.available ? '' : ` (not run: ${gate.reason})`}`,
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kesher-embedded-erasure-'));
    const pgliteDir = join(dataDir, 'pglite');
    let h: ApiHarness | undefined;
    let standIns: ChannelStandIns;

    beforeAll(async () => {
      standIns = await startChannelStandIns();
      const port = await freePort();
      h = await createApiHarness({
        env: {
          DATABASE_URL: '',
          DATA_DIR: dataDir,
          TELEGRAM_API_URL: standIns.urls.telegram,
          PUBLIC_URL: `http://127.0.0.1:${port}`,
        },
      });
      expect(h.platform.sql.kind).toBe('pglite');
      await h.app.listen({ port, host: '127.0.0.1' });
      // A fresh PGlite's initdb and every module's migrations: minutes on a loaded two-core machine.
    }, 600_000);
    afterAll(async () => {
      await h?.close();
      await standIns?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('finds no e-mail, message text or customer name in any PGlite file after the deletion', async () => {
      const harness = h!;
      const { auth, secrets } = await erasureScenario(harness, standIns);
      const searched = {
        email: secrets.email,
        visitorText: secrets.visitorText,
        customerText: secrets.customerText,
        customerName: secrets.customerName,
      };
      // The read models hold them in clear now; after a checkpoint, so do their files.
      await harness.platform.sql.query('CHECKPOINT');
      for (const [what, secret] of Object.entries(searched))
        expect(filesHolding(pgliteDir, secret).length, `${what} before`).toBeGreaterThan(0);

      await deleteAccount(harness, auth);
      const compaction = embeddedCompactionOf(harness.platform)!;
      await compaction.settled();
      expect(compaction.runs()).toBeGreaterThanOrEqual(1);

      // Which table a file is, so a failure names it.
      const { rows: relations } = await harness.platform.sql.query<{ relname: string; path: string }>(
        `SELECT relname, pg_relation_filepath(oid) AS path FROM pg_class WHERE pg_relation_filepath(oid) IS NOT NULL`,
      );
      const named = (file: string) =>
        relations.find((r) => file.endsWith(`/${r.path}`) || file.includes(`/${r.path}.`))?.relname ?? file;
      // Closed as a copy of the directory would be taken: every file as it is on disk.
      await harness.close();
      h = undefined;
      for (const [what, secret] of Object.entries(searched))
        expect(filesHolding(pgliteDir, secret).map(named), what).toEqual([]);
    }, 600_000);
  },
);
