import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, LOCK_FILE } from './data-dir-lock.js';

/** The pid of a process that has exited: what a lock left by `kill -9` names. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the data directory lock', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kesher-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is held by one owner at a time and names the holder', () => {
    const dir = dataDir();
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    expect(() => acquireDataDirLock(dir)).toThrowError(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrowError(
      new RegExp(`in use by another Kesher server \\(pid ${process.pid}\\)`),
    );
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it('refuses while the holder runs, whoever it is', () => {
    const dir = dataDir();
    // pid 1 always runs (and may belong to another user: EPERM still means alive).
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1 }));
    expect(() => acquireDataDirLock(dir)).toThrowError(/pid 1\)/);
  });

  it('takes over a lock whose process is gone (kill -9), and one naming this pid from an earlier run', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: await deadPid() }));
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid);
    lock.release();

    // A container restarts as pid 1 every time: the previous run's lock names the new process.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid }));
    acquireDataDirLock(dir).release();
    // Garbage in the lock file is not a holder.
    writeFileSync(join(dir, LOCK_FILE), 'not json');
    acquireDataDirLock(dir).release();
    expect(existsSync(join(dir, `${LOCK_FILE}.takeover`))).toBe(false);
  });

  it('does not remove a lock another process took after this one released', () => {
    const dir = dataDir();
    const lock = acquireDataDirLock(dir);
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1 }));
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
  });
});
