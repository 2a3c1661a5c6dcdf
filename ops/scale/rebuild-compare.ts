import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { allProjections } from '@kesher/projections/registry';
import { repoRoot } from '@kesher/services/testing/processes';
import type pg from 'pg';
import { connectClient } from './pg-connect.js';

/**
 * Columns (or whole tables) a rebuild from the log legitimately writes differently from the live read
 * model, each with why. Everything else must be equal row for row.
 */
export const REBUILD_EXCLUSIONS: { table: string; columns?: string[]; reason: string }[] = [];

/**
 * Resolves once the projector has applied every event of the log that each read model takes: its
 * checkpoint is at or past the last such event (positions are (transaction id, global position)).
 * Call it once nothing appends any more.
 */
export async function projectorCaughtUp(databaseUrl: string, timeoutMs: number) {
  const client = await connectClient(databaseUrl);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const behind: string[] = [];
      for (const projection of allProjections) {
        const { rows } = await client.query<{ behind: boolean }>(
          `SELECT EXISTS (
             SELECT 1 FROM events e LEFT JOIN projection_checkpoints c ON c.name = $1
             WHERE e.event_type = ANY($2::text[])
               AND (c.name IS NULL OR (e.transaction_id::text::numeric, e.global_position) > (c.commit_position, c.prepare_position))
           ) AS behind`,
          [projection.name, projection.eventTypes],
        );
        if (rows[0]!.behind) behind.push(projection.name);
      }
      if (behind.length === 0) return;
      if (Date.now() > deadline)
        throw new Error(`the projector did not catch up within ${timeoutMs} ms: ${behind.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await client.end();
  }
}

export interface TableComparison {
  table: string;
  projection: string;
  live: number;
  rebuilt: number;
  onlyLive: number;
  onlyRebuilt: number;
  excludedColumns?: string[];
  sample?: { live?: string; rebuilt?: string };
}

/**
 * Copies the (quiet) live database — `CREATE DATABASE … TEMPLATE`: every Kesher process must be stopped —
 * rebuilds every read model in the copy from the log with the replay tool (`replay.main.ts`: drops each
 * read model's tables and applies the log from its first event in one pass), then compares each
 * read-model table of the copy with the live one as multisets of rows. `secrets` is what the live processes
 * sealed with (AUTH_SECRET or SECRETS_KEY).
 */
export async function rebuildAndCompare(
  adminUrl: string,
  liveDb: string,
  logDir: string,
  secrets: Record<string, string>,
) {
  const copyDb = `${liveDb}_rebuilt`;
  const admin = await connectClient(adminUrl);
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${copyDb}`);
    await admin.query(`CREATE DATABASE ${copyDb} TEMPLATE ${liveDb}`);
  } finally {
    await admin.end();
  }
  const urlOf = (db: string) => Object.assign(new URL(adminUrl), { pathname: `/${db}` }).toString();

  const started = performance.now();
  const log = join(logDir, 'replay.log');
  const fd = openSync(log, 'a');
  const names = allProjections.map((p) => p.name);
  const replay = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'services/src/main/replay.main.ts'), ...names],
    {
      cwd: repoRoot,
      // The live processes' secrets: the log's personal fields are sealed under keys only they open.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_URL: urlOf(copyDb),
        DATA_DIR: join(logDir, 'replay-data'),
        LOG_LEVEL: 'warn',
        ...secrets,
      },
      stdio: ['ignore', fd, fd],
    },
  );
  closeSync(fd);
  const code = await new Promise<number | null>((resolve) => replay.on('exit', resolve));
  const replayMs = performance.now() - started;
  if (code !== 0) throw new Error(`replay exited ${code}:\n${readFileSync(log, 'utf8').slice(-3000)}`);

  const live = await connectClient(urlOf(liveDb));
  const rebuilt = await connectClient(urlOf(copyDb));
  const tables: TableComparison[] = [];
  const excludedTables: { table: string; reason: string }[] = [];
  let notReadModels: string[] = [];
  try {
    // Named in the summary so a read model whose table is missing from its projection's `tables` shows up.
    const readModelTables = new Set(allProjections.flatMap((p) => p.tables));
    notReadModels = (
      await live.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1`,
      )
    ).rows
      .map((r) => r.name)
      .filter((name) => !readModelTables.has(name));
    for (const projection of allProjections) {
      for (const table of projection.tables) {
        const exclusion = REBUILD_EXCLUSIONS.find((e) => e.table === table);
        if (exclusion && !exclusion.columns) {
          excludedTables.push({ table, reason: exclusion.reason });
          continue;
        }
        const columns = exclusion?.columns ?? [];
        // Each row as canonical JSON (jsonb orders keys), less the excluded columns.
        const rowsOf = async (client: pg.Client) =>
          (
            await client.query<{ row: string }>(`SELECT (to_jsonb(t) - $1::text[])::text AS row FROM ${table} t`, [
              columns,
            ])
          ).rows.map((r) => r.row);
        const [a, b] = await Promise.all([rowsOf(live), rowsOf(rebuilt)]);
        const counts = new Map<string, number>();
        for (const row of a) counts.set(row, (counts.get(row) ?? 0) + 1);
        const onlyRebuiltRows: string[] = [];
        for (const row of b) {
          const n = counts.get(row) ?? 0;
          if (n > 0) counts.set(row, n - 1);
          else onlyRebuiltRows.push(row);
        }
        const onlyLiveRows = [...counts].flatMap(([row, n]) => Array.from({ length: n }, () => row));
        tables.push({
          table,
          projection: projection.name,
          live: a.length,
          rebuilt: b.length,
          onlyLive: onlyLiveRows.length,
          onlyRebuilt: onlyRebuiltRows.length,
          ...(columns.length ? { excludedColumns: columns } : {}),
          ...(onlyLiveRows.length || onlyRebuiltRows.length
            ? { sample: { live: onlyLiveRows[0]?.slice(0, 600), rebuilt: onlyRebuiltRows[0]?.slice(0, 600) } }
            : {}),
        });
      }
    }
  } finally {
    await Promise.all([live.end(), rebuilt.end()]);
  }
  return {
    copyDb,
    replayMs,
    replayLog: readFileSync(log, 'utf8').trim().split('\n').slice(-2).join(' | '),
    tables,
    excludedTables,
    /** Tables of the database that are no read model (the log, the bus, checkpoints, blobs, limits…): not rebuilt, not compared. */
    notReadModels,
    drop: async () => {
      const client = await connectClient(adminUrl);
      await client.query(`DROP DATABASE IF EXISTS ${copyDb} WITH (FORCE)`);
      await client.end();
    },
  };
}
