import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npx tsx ops/decider-rules.ts [name]`: is every decider rule held by a test? Each guard of a decider
 * (`if (…) throw …`, `if (…) return […]`, `return … ? [events] : []`, a bare `throw new DomainError`)
 * is switched off in turn, in a copy of services/src/domain, and that decider's unit tests run against
 * the copy: a rule whose removal leaves them green is a rule no test holds. Prints each rule with `held` or `NOT HELD`; exits 1 when
 * any is not held. Slow (one vitest run per rule, a few seconds each): run it when deciders change.
 */
const services = fileURLToPath(new URL('../services/src/', import.meta.url));
const repo = fileURLToPath(new URL('..', import.meta.url));
const copy = join(services, 'domain-rules-check');
const only = process.argv[2] ?? '';

function* deciders(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* deciders(path);
    else if (entry.name.endsWith('.decider.ts') && entry.name.includes(only)) yield path;
  }
}

/** The line with its guard switched off, or undefined when the line is no guard. */
function switchedOff(line: string): string | undefined {
  const guard = /^(\s*)if \((.*)\) (throw .*|return \[.*)$/.exec(line);
  if (guard) return `${guard[1]}if (false as boolean) ${guard[3]}`;
  if (/^\s*throw (new DomainError|notFound\(\))/.test(line)) return line.replace('throw ', 'void ');
  // `return cond ? [events] : [];` decides as if `cond` always held.
  const ternary = /^(\s*)return ([^?]+) \? (.+) : \[\];$/.exec(line);
  if (ternary) return `${ternary[1]}return ${ternary[3]};`;
  return undefined;
}

const notHeld: string[] = [];
rmSync(copy, { recursive: true, force: true });
cpSync(join(services, 'domain'), copy, { recursive: true });
try {
  for (const decider of deciders(copy)) {
    const own = decider.replace(/\.ts$/, '.unit.test.ts');
    const tests = existsSync(own)
      ? [own]
      : readdirSync(dirname(decider))
          .filter((f) => f.endsWith('.decider.unit.test.ts'))
          .map((f) => join(dirname(decider), f));
    if (tests.length === 0) {
      notHeld.push(`${basename(decider)}: no unit test`);
      continue;
    }
    const original = readFileSync(decider, 'utf8');
    const lines = original.split('\n');
    lines.forEach((line, i) => {
      const off = switchedOff(line);
      if (off === undefined) return;
      writeFileSync(decider, [...lines.slice(0, i), off, ...lines.slice(i + 1)].join('\n'));
      const run = spawnSync('npx', ['vitest', 'run', ...tests.map((t) => relative(repo, t))], {
        cwd: repo,
        encoding: 'utf8',
      });
      const where = `${relative(copy, decider)}:${i + 1}: ${line.trim()}`;
      if (run.status === 0) notHeld.push(where);
      console.log(`${run.status === 0 ? 'NOT HELD' : 'held    '} ${where.slice(0, 140)}`);
    });
    writeFileSync(decider, original);
  }
} finally {
  rmSync(copy, { recursive: true, force: true });
}
console.log(
  notHeld.length
    ? `\n${notHeld.length} rule(s) no test holds:\n${notHeld.join('\n')}`
    : '\nEvery rule is held by a test.',
);
process.exit(notHeld.length ? 1 : 0);
