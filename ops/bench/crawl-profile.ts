/**
 * One crawler of `make bench-crawl` on the bench's site, with extra Node flags, for looking at where its time
 * goes:
 *
 *   npx tsx ops/bench/crawl-profile.ts kesher 800 --cpu-prof --cpu-prof-dir=/tmp/crawl-profile
 *
 * (then open the .cpuprofile in Chrome's DevTools). Prints the child's JSON line; writes no results file.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { startLocalSite } from '@kesher/services/crawler/testing/local-site';
import { repoRoot } from './bench-kit.js';

const site = await startLocalSite({ posts: 2000, hebrewPosts: 100, slowPages: 20, slowMs: 200 });
const [which = 'kesher', pages = '2000', ...extra] = process.argv.slice(2);
await new Promise<void>((done) => {
  const child = spawn(
    process.execPath,
    [...extra, '--import', 'tsx', resolve(repoRoot, 'ops/bench/crawl-child.ts'), which, `${site.origin}/`, pages],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  child.on('exit', () => done());
});
await site.close();
