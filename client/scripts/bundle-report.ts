import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * What each chunk of a build is made of, for deciding what to split or drop: with BUNDLE_REPORT=<file>
 * set, a build writes, per JS chunk, its gzip size, what imports it statically, and its modules by
 * rendered (minified, before gzip) size. Off by default; it changes nothing the build emits.
 *
 *   BUNDLE_REPORT=/tmp/visitor.json npx vite build --config vite.visitor.config.ts --outDir /tmp/visitor-dist
 */
export const bundleReport = (): Plugin | null => {
  const file = process.env.BUNDLE_REPORT;
  if (!file) return null;
  return {
    name: 'kesher-bundle-report',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
      const report = chunks
        .map((chunk) => ({
          file: chunk.fileName,
          entry: chunk.isEntry,
          gzip_kb: Math.round(gzipSync(chunk.code, { level: 9 }).length / 102.4) / 10,
          imports: chunk.imports,
          dynamic_imports: chunk.dynamicImports,
          modules: Object.entries(chunk.modules)
            .map(([id, info]) => ({ id: id.replace(/^.*node_modules\//, '~/'), bytes: info.renderedLength }))
            .filter((m) => m.bytes > 0)
            .sort((a, b) => b.bytes - a.bytes),
        }))
        .sort((a, b) => b.gzip_kb - a.gzip_kb);
      writeFileSync(file, JSON.stringify(report, null, 1));
    },
  };
};
