/**
 * Build step: writes dist/prerendered/<page>.html — index.html with the page's markup inside #root —
 * for the public pages a first-time visitor lands on. Run with tsx after `vite build`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { precompressFile } from './precompress';

// Storage the browser would have; empty, as for a first visit.
const memory = new Map<string, string>();
Object.assign(globalThis, {
  localStorage: {
    getItem: (k: string) => memory.get(k) ?? null,
    setItem: (k: string, v: string) => void memory.set(k, String(v)),
    removeItem: (k: string) => void memory.delete(k),
  },
});

const { renderPage } = await import('../src/prerender/render-page');
const { bootScript, inlineStylesheets, takeAppTags, withoutImagePreloads } =
  await import('../src/prerender/landing-html');
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const shell = readFileSync(`${dist}index.html`, 'utf8');
const BOOT = /<div id="root">[\s\S]*?<\/div><\/div>/;
if (!BOOT.test(shell)) throw new Error('dist/index.html has no boot markup inside #root to replace');

mkdirSync(`${dist}prerendered`, { recursive: true });
const boot = BOOT.exec(shell)![0]
  .replace(/^<div id="root">/, '')
  .replace(/<\/div>$/, '');
const { html: page, app } = takeAppTags(shell);
const styled = inlineStylesheets(page, (href) => readFileSync(`${dist}${href.replace(/^\//, '')}`, 'utf8'));
for (const [name, path] of [
  ['about', '/about'],
  ['home', '/'],
] as const) {
  const markup = withoutImagePreloads(await renderPage(path));
  // A function replacement: the markup and the script are inserted as they are.
  const html = styled.replace(BOOT, () => `<div id="root">${markup}</div>${bootScript(boot, app)}`);
  writeFileSync(`${dist}prerendered/${name}.html`, html);
  precompressFile(`${dist}prerendered/${name}.html`);
  console.log(`prerendered ${path} → dist/prerendered/${name}.html (${Math.round(html.length / 1024)} KB)`);
}
