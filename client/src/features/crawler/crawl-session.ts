/**
 * The crawl the owner is watching (spec §2 "dashboard crawl restore"): three session-storage entries —
 * the active crawl id, its website and its start time — so that a reload reopens the progress panel.
 * A tiny store so that whoever starts a crawl (the dialog, the create flow) and the panel agree.
 */
const keys = { id: 'activeCrawlId', url: 'activeCrawlUrl', startedAt: 'crawlStartTime' } as const;

export interface ActiveCrawl {
  crawlId: string;
  websiteUrl: string;
  startedAt: number;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let cached: { raw: string; value: ActiveCrawl | null } = { raw: '', value: null };

/** Reads the entries each time (they are the truth, a reload included) but keeps one object per value, as React's store hook wants. */
function read(): ActiveCrawl | null {
  const crawlId = sessionStorage.getItem(keys.id);
  const websiteUrl = sessionStorage.getItem(keys.url) ?? '';
  const started = sessionStorage.getItem(keys.startedAt) ?? '';
  const raw = crawlId ? [crawlId, websiteUrl, started].join('\n') : '';
  if (raw === cached.raw) return cached.value;
  const startedAt = Number(started);
  const value = crawlId
    ? { crawlId, websiteUrl, startedAt: Number.isFinite(startedAt) && startedAt > 0 ? startedAt : Date.now() }
    : null;
  cached = { raw, value };
  return value;
}

function changed() {
  for (const listener of listeners) listener();
}

export const crawlSession = {
  get: read,
  start(crawlId: string, websiteUrl: string, now = Date.now()) {
    sessionStorage.setItem(keys.id, crawlId);
    sessionStorage.setItem(keys.url, websiteUrl);
    sessionStorage.setItem(keys.startedAt, String(now));
    changed();
  },
  clear() {
    for (const key of Object.values(keys)) sessionStorage.removeItem(key);
    changed();
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
