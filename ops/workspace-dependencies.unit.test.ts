import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dev-dist', '.tsbuild']);
/** Not packages: relative and absolute paths, node's own modules, the client's `@/` alias, Vite's virtual modules. */
const NOT_A_PACKAGE = /^(\.|\/|node:|virtual:|@\/)/;

interface Manifest {
  name: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const manifest = (dir: string): Manifest => JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
const declared = (m: Manifest) =>
  new Set(Object.keys({ ...m.dependencies, ...m.devDependencies, ...m.peerDependencies, ...m.optionalDependencies }));

function sources(dir: string, skip: ReadonlySet<string> = new Set()): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return SKIPPED_FOLDERS.has(entry.name) || skip.has(path) || entry.name.startsWith('.') ? [] : sources(path, skip);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

/** The packages a file imports (static, dynamic, `require`, `import type`), by package name. */
function importedPackages(path: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(path, 'utf8'), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((specifier) => !NOT_A_PACKAGE.test(specifier))
    .map((specifier) =>
      specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!,
    )
    .filter((name) => !builtinModules.includes(name));
}

/** Each workspace's undeclared imports, as `file: package`. */
function undeclared(dir: string, files: readonly string[]): string[] {
  const own = manifest(dir);
  const allowed = declared(own);
  return files.flatMap((file) =>
    importedPackages(file)
      .filter((name) => name !== own.name && !allowed.has(name))
      .map((name) => `${relative(root, file)}: ${name}`),
  );
}

describe('every workspace declares what it imports', () => {
  const workspaces = manifest('.').workspaces ?? [];

  for (const dir of workspaces) {
    it(`${dir}: every imported package is in its package.json`, () => {
      expect(undeclared(dir, sources(join(root, dir)))).toEqual([]);
    });
  }

  it('the root (its own config files, outside the workspaces): every imported package is in its package.json', () => {
    const files = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs)$/.test(entry.name))
      .map((entry) => join(root, entry.name));
    expect(undeclared('.', files)).toEqual([]);
  });

  it('test helpers that import vitest live in a testing/ folder (or the client’s test/), never beside the code', () => {
    const isTest = (path: string) => /\.test\.tsx?$/.test(path);
    const isHelperFolder = (path: string) => /(^|\/)(testing|test)\//.test(path);
    const isVitestConfig = (path: string) => /(^|\/)(vitest(\.[a-z0-9]+)?\.config|global-setup)\.ts$/.test(path);
    const misplaced = workspaces
      .flatMap((dir) => sources(join(root, dir)))
      .map((path) => relative(root, path))
      .filter((path) => !isTest(path) && !isHelperFolder(path) && !isVitestConfig(path))
      .filter((path) => importedPackages(join(root, path)).includes('vitest'));
    expect(misplaced).toEqual([]);
  });
});
