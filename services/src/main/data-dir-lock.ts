import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** The file that says which process owns a data directory. */
export const LOCK_FILE = 'kesher.lock';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another Kesher server (pid ${holderPid}). ` +
        `Stop that server first, or give this one its own DATA_DIR. ` +
        `(If no process ${holderPid} is a Kesher server, delete ${join(dataDir, LOCK_FILE)}.)`,
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly file: string;
  release(): void;
}

interface Holder {
  pid: number;
  hostname?: string;
  startedAt?: string;
}

/** Locks this process holds, so a second acquisition in the same process is refused too (two PGlites on one directory corrupt it alike). */
const heldHere = new Set<string>();

function readHolder(file: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Holder>;
    return typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0
      ? (parsed as Holder)
      : undefined;
  } catch {
    return undefined; // missing, or not a lock Kesher wrote
  }
}

/**
 * Whether `pid` is a live process. A lock naming this very process is not ours unless we took it here:
 * in a container every restart is pid 1, so a lock left by the previous run names the new one.
 */
function alive(pid: number, file: string): boolean {
  if (pid === process.pid) return heldHere.has(file);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else — still a holder.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates `file` with `content` only if it does not exist: the one atomic step every contender races on.
 * The content is written to a private file first and then hard-linked into place (link fails if the name
 * exists), so nobody ever reads a half-written lock and mistakes it for a stale one.
 */
function createExclusive(file: string, content: string): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, content, { flag: 'wx', mode: 0o644 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // A filesystem without hard links: O_EXCL creation is atomic too, only its content lands a moment later.
    try {
      writeFileSync(file, content, { flag: 'wx', mode: 0o644 });
      return true;
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw fallback;
    }
  } finally {
    rmSync(draft, { force: true });
  }
}

/**
 * Takes the data directory for this process, or throws `DataDirLockedError` naming the holder's pid.
 *
 * PGlite does not lock its files, and two servers on one directory both run and silently lose each
 * other's acknowledged writes. The lock is a file created atomically, holding the owner's pid. A lock
 * whose process is gone (killed with -9, a power cut) is stale and taken over; the takeover itself is
 * serialised by a second such file, so two servers starting together over a stale lock cannot both
 * remove it and both win.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, LOCK_FILE);
  const takeover = `${file}.takeover`;
  const content = JSON.stringify({
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
  } satisfies Holder);

  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(file, content)) return held(file);
    const holder = readHolder(file);
    if (holder && alive(holder.pid, file)) throw new DataDirLockedError(dir, holder.pid);
    // Stale (or not a lock at all). Only the process holding the takeover file may remove it.
    if (!createExclusive(takeover, content)) {
      const other = readHolder(takeover);
      if (other && alive(other.pid, takeover)) throw new DataDirLockedError(dir, other.pid);
      rmSync(takeover, { force: true }); // a contender died mid-takeover; its marker is stale too
      continue;
    }
    try {
      const again = readHolder(file);
      // Re-read under the takeover: the lock may have been taken over and re-created meanwhile.
      if (again && alive(again.pid, file)) throw new DataDirLockedError(dir, again.pid);
      rmSync(file, { force: true });
      if (createExclusive(file, content)) return held(file);
    } finally {
      rmSync(takeover, { force: true });
    }
  }
  const holder = readHolder(file);
  throw new DataDirLockedError(dir, holder?.pid ?? 0);
}

function held(file: string): DataDirLock {
  heldHere.add(file);
  // A crash or process.exit still frees the directory for the next start (kill -9 leaves a stale lock, which is taken over).
  const onExit = () => releaseIfOurs(file);
  process.once('exit', onExit);
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      process.removeListener('exit', onExit);
      releaseIfOurs(file);
    },
  };
}

function releaseIfOurs(file: string) {
  heldHere.delete(file);
  if (readHolder(file)?.pid !== process.pid) return;
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
}
