import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images are already compressed. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
const MIN_BYTES = 1024;

/**
 * Writes `.br` and `.gz` siblings of every text file the build emits, once, at build time. The API
 * serves them with @fastify/static's `preCompressed` (no compression work per request): on a phone's
 * network the bytes on the wire are what the visitor waits for.
 */
export function precompressFile(path: string) {
  const body = readFileSync(path);
  if (body.length < MIN_BYTES) return;
  writeFileSync(
    `${path}.br`,
    brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    }),
  );
  writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
}

export const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'kesher-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    writeBundle(_options, bundle) {
      for (const fileName of Object.keys(bundle))
        if (COMPRESSIBLE.test(fileName)) precompressFile(join(outDir, fileName));
    },
  };
};
