import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const scripts = execFileSync('git', ['ls-files', '*.sh'], { cwd: root, encoding: 'utf8' }).trim().split('\n');

/**
 * A script under `set -o pipefail` that pipes a command into `head` fails whenever the command writes on
 * after head has taken its lines and exited (SIGPIPE, status 141): a race the machine's load decides. It
 * failed a CI run once, in ops/scale/ensure-lb.sh, right after HAProxy had been installed.
 */
/** A pipe into head on a script line (what runs inside `$( … )` is left out: its status does not stop the script). */
const pipesIntoHead = (line: string) => !line.startsWith('#') && /\|\s*head\b/.test(line.replace(/\$\([^)]*\)/g, ''));

describe('shell scripts', () => {
  it('finds the scripts', () => {
    expect(scripts).toContain('ops/scale/ensure-lb.sh');
  });

  it('never pipe into head under pipefail, outside a command substitution', () => {
    const offending = scripts.flatMap((file) => {
      const text = readFileSync(`${root}/${file}`, 'utf8');
      if (!/set -[a-z]*o pipefail|set -o pipefail/.test(text)) return [];
      return text
        .split('\n')
        .map((line, i) => ({ line: line.trim(), at: `${file}:${i + 1}` }))
        .filter(({ line }) => pipesIntoHead(line))
        .map(({ at, line }) => `${at}: ${line}`);
    });
    expect(offending).toEqual([]);
  });

  it('would have caught the HAProxy line, and lets a substitution and a comment be', () => {
    expect(pipesIntoHead('haproxy -v | head -1')).toBe(true);
    expect(pipesIntoHead('start "$(ls /etc/postgresql | head -1)" main')).toBe(false);
    expect(pipesIntoHead('# haproxy -v | head -1')).toBe(false);
  });
});
