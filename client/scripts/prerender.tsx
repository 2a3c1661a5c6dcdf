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
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const shell = readFileSync(`${dist}index.html`, 'utf8');
const BOOT = /<div id="root">[\s\S]*?<\/div><\/div>/;
if (!BOOT.test(shell)) throw new Error('dist/index.html has no boot markup inside #root to replace');

/** The app's module script and its preloads, moved out of <head> (see `guard`). */
const APP_TAGS = /<script type="module"[^>]*><\/script>\s*|<link rel="modulepreload"[^>]*>\s*/g;

/**
 * Visitors who would not see this markup (signed in, or reading English) get the plain boot screen
 * back before the first paint, so nothing flashes, and the app starts at once. For everyone else the
 * page is already readable, so the app's code is requested only after the first paint: its download
 * then never competes with the page's own bytes on a slow phone network.
 */
const guard = (bootHtml: string, appTags: string[]) => {
  const urls = appTags.map((tag) => /(?:src|href)="([^"]+)"/.exec(tag)![1]!);
  const [entry, ...preloads] = [urls.find((_, i) => appTags[i]!.startsWith('<script'))!, ...urls.filter((_, i) => !appTags[i]!.startsWith('<script'))];
  return `<script>(function(){var pre=false;try{var l=localStorage.getItem('language');if(localStorage.getItem('firebaseToken')||(l&&l!=='he')){document.getElementById('root').innerHTML=${JSON.stringify(bootHtml)};}else{pre=true;document.documentElement.dataset.prerendered='1';}}catch(e){}
function start(){${JSON.stringify(preloads)}.forEach(function(h){var k=document.createElement('link');k.rel='modulepreload';k.crossOrigin='';k.href=h;document.head.appendChild(k);});var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entry)};document.head.appendChild(s);}
if(pre){requestAnimationFrame(function(){setTimeout(start,0);});}else{start();}})();</script>`;
};

mkdirSync(`${dist}prerendered`, { recursive: true });
for (const [name, path] of [['about', '/about'], ['home', '/']] as const) {
  const markup = await renderPage(path);
  const boot = BOOT.exec(shell)![0].replace(/^<div id="root">/, '').replace(/<\/div>$/, '');
  const appTags = shell.match(APP_TAGS)?.map((t) => t.trim()) ?? [];
  if (!appTags.some((t) => t.startsWith('<script'))) throw new Error('dist/index.html has no module script');
  const html = shell.replace(APP_TAGS, '').replace(BOOT, `<div id="root">${markup}</div>${guard(boot, appTags)}`);
  writeFileSync(`${dist}prerendered/${name}.html`, html);
  precompressFile(`${dist}prerendered/${name}.html`);
  console.log(`prerendered ${path} → dist/prerendered/${name}.html (${Math.round(html.length / 1024)} KB)`);
}
