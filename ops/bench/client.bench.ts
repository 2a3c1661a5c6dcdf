import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { type BrowserContext, chromium } from 'playwright-core';
import { repoRoot, round, writeResults } from './bench-kit.js';

/**
 * `make bench-client`: what the owner's PWA costs to load, measured in the system Chromium against the
 * real server (built client served by the API):
 * - initial_js_gzip_kb: gzip size of every script the signed-in owner's first load of /dashboard runs;
 * - public_chunk_js_gzip_kb: the route chunks /public-chat and /embed add on top of the shared runtime
 *   (public_first_load_js_gzip_kb is their whole first load, runtime included);
 * - installable: Chromium's own installability check (no errors) plus an active service worker;
 * - Lighthouse (mobile) on /about and /dashboard when the `lighthouse` package is installed.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
];
/** Set to a directory to keep each page's full Lighthouse report (<page>.lighthouse.json) for inspection. */
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const DEMO = { email: 'dana@demo.kesher.app', password: 'Demo-Kesher-2026!' };

const kb = (bytes: number) => round(bytes / 1024, 1);

/** The client's own e2e server starter (spawns the embedded server on a free port with a temp DATA_DIR). */
type StartKesher = () => Promise<{ baseUrl: string; stop: () => Promise<void> }>;
const serverModule = resolve(repoRoot, 'client/e2e/server.ts');

/** Browser globals as seen inside page.evaluate (this project compiles without the DOM library). */
interface PageWindow {
  localStorage: { setItem(key: string, value: string): void };
  navigator: {
    serviceWorker: {
      ready: Promise<{
        active: { state: string; addEventListener(type: 'statechange', listener: () => void): void } | null;
      }>;
    };
  };
  document: { querySelector(selector: string): { href: string } | null };
}

/** Scripts (by URL) and their gzip sizes that a first load of `path` executes. */
async function scriptsOf(context: BrowserContext, url: string, ready: string) {
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  // Each body is read after its response event: all reads are awaited before the page closes, or a busy
  // machine drops the ones still pending (a run on a loaded machine counted /about's scripts as 0 KB).
  const reads: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    reads.push(
      response
        .body()
        .then((body) => void scripts.set(new URL(response.url()).pathname, gzipSync(body, { level: 9 }).length))
        .catch(() => {}),
    );
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator(ready).first().waitFor();
  await Promise.all(reads);
  await page.close();
  return scripts;
}

const total = (scripts: Map<string, number>) => [...scripts.values()].reduce((a, b) => a + b, 0);

async function signIn(baseUrl: string) {
  const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify(DEMO),
  });
  const session = (await response.json()) as { access_token: string; user: { uid: string } };
  const list = (await (
    await fetch(`${baseUrl}/api/v1/assistants/`, { headers: { authorization: `Bearer ${session.access_token}` } })
  ).json()) as { id: number }[];
  let assistantId = list[0]?.id;
  if (!assistantId) {
    const created = await fetch(`${baseUrl}/api/v1/assistants/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
      body: JSON.stringify({ name: 'Bench helper', description: 'For the bench', instructions: 'Be brief.' }),
    });
    assistantId = ((await created.json()) as { assistant_id: number }).assistant_id;
  }
  const share = await fetch(`${baseUrl}/api/v1/assistants/${assistantId}/generate-share-token`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session.access_token}` },
  });
  const { share_token } = (await share.json()) as { share_token: string };
  return { token: session.access_token, uid: session.user.uid, shareToken: share_token, assistantId };
}

/**
 * Chromium's own installability verdict (Page.getInstallabilityErrors) on /about, in a persistent
 * profile (an incognito context is never installable), once the service worker is activated.
 */
async function installability(baseUrl: string) {
  const profile = mkdtempSync(join(tmpdir(), 'kesher-install-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/about`, { waitUntil: 'networkidle' });
    const serviceWorker = await page.evaluate(async () => {
      const { navigator } = globalThis as unknown as PageWindow;
      const registration = await navigator.serviceWorker.ready;
      const worker = registration.active;
      if (worker && worker.state !== 'activated') {
        await new Promise<void>((done) =>
          worker.addEventListener('statechange', () => worker.state === 'activated' && done()),
        );
      }
      return registration.active?.state ?? null;
    });
    await page.reload({ waitUntil: 'networkidle' });
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    const manifest = await page.evaluate(async () => {
      const href = (globalThis as unknown as PageWindow).document.querySelector('link[rel="manifest"]')?.href;
      return href ? ((await (await fetch(href)).json()) as { icons?: { sizes: string }[] }) : null;
    });
    const sizes = new Set(manifest?.icons?.map((i) => i.sizes));
    return {
      installable:
        installabilityErrors.length === 0 &&
        serviceWorker === 'activated' &&
        sizes.has('192x192') &&
        sizes.has('512x512'),
      installability_errors: installabilityErrors.map((e) => e.errorId),
      service_worker: serviceWorker,
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Lighthouse's mobile profile in the system Chromium; skipped (with the reason) when not installed. */
async function lighthouseScores(baseUrl: string, session: { token: string; uid: string }) {
  let lighthouse: typeof import('lighthouse').default;
  let launch: typeof import('chrome-launcher').launch;
  try {
    lighthouse = (await import('lighthouse')).default;
    launch = (await import('chrome-launcher')).launch;
  } catch {
    return { lighthouse: 'skipped: npm package lighthouse is not installed' };
  }
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: ARGS });
  const results: Record<string, number | string> = {};
  try {
    for (const [name, path, signedIn] of [
      ['about', '/about', false],
      ['dashboard', '/dashboard', true],
    ] as const) {
      if (signedIn) {
        // The dashboard needs a session: store it in this Chrome's profile first; Lighthouse then keeps
        // storage (disableStorageReset) and measures the signed-in page.
        const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        const page = await cdp.contexts()[0]!.newPage();
        await page.goto(`${baseUrl}/login`);
        await page.evaluate(({ token, uid }) => {
          const { localStorage } = globalThis as unknown as PageWindow;
          localStorage.setItem('firebaseToken', token);
          localStorage.setItem('currentUserUid', uid);
          localStorage.setItem('language', 'en');
        }, session);
        await page.close();
        await cdp.close();
      }
      const run = await lighthouse(
        `${baseUrl}${path}`,
        {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          disableStorageReset: signedIn,
        },
        undefined,
      );
      if (REPORT_DIR && run) {
        mkdirSync(REPORT_DIR, { recursive: true });
        writeFileSync(join(REPORT_DIR, `${name}.lighthouse.json`), JSON.stringify(run.lhr, null, 1));
      }
      const categories = run?.lhr.categories;
      const score = (key: string) => Math.round((categories?.[key]?.score ?? 0) * 100);
      results[`lh_${name}_performance`] = score('performance');
      results[`lh_${name}_accessibility`] = score('accessibility');
      results[`lh_${name}_best_practices`] = score('best-practices');
      results[`lh_${name}_final_url`] = run?.lhr.finalDisplayedUrl ?? '';
      const metric = (id: string) => Math.round(run?.lhr.audits[id]?.numericValue ?? 0);
      results[`lh_${name}_fcp_ms`] = metric('first-contentful-paint');
      results[`lh_${name}_lcp_ms`] = metric('largest-contentful-paint');
      results[`lh_${name}_tbt_ms`] = metric('total-blocking-time');
      results[`lh_${name}_cls`] = run?.lhr.audits['cumulative-layout-shift']?.numericValue ?? 0;
    }
  } finally {
    chrome.kill();
  }
  return results;
}

async function main() {
  if (!existsSync(CHROMIUM)) spawnSync('bash', [resolve(repoRoot, 'ops/chromium/ensure.sh')], { stdio: 'inherit' });
  if (!existsSync(resolve(repoRoot, 'client/dist/index.html')))
    spawnSync('npm', ['run', 'build', '-w', 'client'], { cwd: repoRoot, stdio: 'inherit' });
  const { startKesher } = (await import(serverModule)) as { startKesher: StartKesher };
  const server = await startKesher();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const { baseUrl } = server;
    const session = await signIn(baseUrl);

    const owner = await browser.newContext();
    await owner.addInitScript(({ token, uid }) => {
      const { localStorage } = globalThis as unknown as PageWindow;
      localStorage.setItem('firebaseToken', token);
      localStorage.setItem('currentUserUid', uid);
    }, session);
    const dashboard = await scriptsOf(owner, `${baseUrl}/dashboard`, '.card-grid, .empty-state');
    await owner.close();

    const visitor = await browser.newContext();
    const about = await scriptsOf(visitor, `${baseUrl}/about`, '#faq');
    const embed = await scriptsOf(visitor, `${baseUrl}/embed/${session.shareToken}`, '.welcome');
    await visitor.close();
    const visitor2 = await browser.newContext();
    const publicChat = await scriptsOf(visitor2, `${baseUrl}/public-chat/${session.assistantId}`, '.chat-page');
    await visitor2.close();

    // The shared runtime is what every route loads (the entry and its imports): the scripts the
    // dashboard, about and embed loads have in common. The rest of a public load is its own chunks.
    const shared = new Set([...embed.keys()].filter((k) => dashboard.has(k) && about.has(k)));
    const ownChunks = (m: Map<string, number>) => total(new Map([...m].filter(([k]) => !shared.has(k))));

    const results = {
      initial_js_gzip_kb: kb(total(dashboard)),
      initial_js_goal_kb: 200,
      about_first_load_js_gzip_kb: kb(total(about)),
      public_chunk_js_gzip_kb: kb(Math.max(ownChunks(embed), ownChunks(publicChat))),
      public_chunk_goal_kb: 80,
      public_first_load_js_gzip_kb: kb(Math.max(total(embed), total(publicChat))),
      shared_runtime_js_gzip_kb: kb(total(new Map([...embed].filter(([k]) => shared.has(k))))),
      ...(await installability(baseUrl)),
      ...(await lighthouseScores(baseUrl, session)),
    };
    console.log(results);
    writeResults('client', results);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
