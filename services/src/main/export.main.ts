import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  createCopyLogReader,
  createSqlLogReader,
  eventStoreSource,
  exportEvents,
  type ExportFilter,
  progressLine,
  sqlLogSource,
} from '../analytics/index.js';
import { loadConfig } from '../platform/config/config.js';
import { closeOnSignal } from '../platform/process/lifecycle.js';
import { createProcessLog } from '../platform/process/process-log.js';
import { composePlatform } from './compose-platform.js';

/**
 * `npm run export -- [--from <ISO date>] [--to <ISO date>] [--type T]… [--owner <account id>]
 * [--assistant <assistant id>] [--out <file>]`: the event log as NDJSON (stdout by default), with a progress
 * bar on stderr when it is a terminal. In the embedded default, stop `make start` first (PGlite's folder has
 * one owner at a time).
 */
const USAGE =
  'usage: npm run export -- [--from 2026-01-01] [--to 2026-03-31T23:59:59Z] [--type MessagePosted]… [--owner <account id>] [--assistant <assistant id>] [--out events.ndjson]';

function parse(argv: string[]): { filter: ExportFilter; out?: string } {
  const { values } = parseArgs({
    args: argv,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      type: { type: 'string', multiple: true },
      owner: { type: 'string' },
      assistant: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const date = (value: string | undefined, name: string, endOfDay: boolean) => {
    if (value === undefined) return undefined;
    // A bare date means the whole day: from its first instant, to its last.
    const parsed = new Date(
      /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}Z` : value,
    );
    if (Number.isNaN(parsed.getTime())) throw new Error(`--${name}: not a date: ${value}`);
    return parsed;
  };
  return {
    filter: {
      from: date(values.from, 'from', false),
      to: date(values.to, 'to', true),
      types: values.type
        ?.flatMap((t) => t.split(','))
        .map((t) => t.trim())
        .filter(Boolean),
      ownerId: values.owner,
      assistantId: values.assistant,
    },
    out: values.out,
  };
}

let options: ReturnType<typeof parse>;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}

const config = loadConfig();
// stdout is the export itself: the log goes to stderr, beside the progress bar and the summary.
const log = createProcessLog('kesher-export', { level: config.LOG_LEVEL, stderr: true });
const platform = await composePlatform(config, { applicationName: 'kesher-export', log });
const output = options.out ? createWriteStream(options.out) : process.stdout;
const terminal = process.stderr.isTTY;
const started = Date.now();
let lastDrawn = 0;
const onSql = platform.adapters.eventStore !== 'eventstoredb';
// A real Postgres is read with COPY (lines written by Postgres, passed on as bytes) unless an owner is followed.
const copy =
  onSql && platform.sql.kind === 'postgres' && platform.config.DATABASE_URL
    ? createCopyLogReader(platform.config.DATABASE_URL)
    : undefined;
// Ctrl-C half-way lets the connections go and exits 130: the file holds only part of the log.
const lifecycle = closeOnSignal(
  async () => {
    await copy?.close();
    await platform.close();
  },
  { log, deadlineMs: config.SHUTDOWN_TIMEOUT_MS, signalExitCode: 130 },
);
const result = await exportEvents(
  {
    // The log in Postgres/PGlite is read as text (nothing parsed in Node); EventStoreDB through its port.
    source: onSql ? sqlLogSource(createSqlLogReader(platform.sql)) : eventStoreSource(platform.sealedEventStore),
    copy,
    write: async (chunk) => {
      if (!output.write(chunk)) await once(output, 'drain');
    },
    onProgress: (progress) => {
      if (!terminal || Date.now() - lastDrawn < 100) return;
      lastDrawn = Date.now();
      process.stderr.write(`\r${progressLine(progress, Date.now() - started)}`);
    },
  },
  options.filter,
);
if (options.out)
  await new Promise<void>((resolve, reject) =>
    (output as ReturnType<typeof createWriteStream>).end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
const seconds = (Date.now() - started) / 1000;
process.stderr.write(
  `${terminal ? '\n' : ''}exported ${result.written} of ${result.read} events in ${seconds.toFixed(1)} s${options.out ? ` to ${options.out}` : ''}\n`,
);
await lifecycle.shutdown('done');
