import type { CrawlProgressMessage } from '@kesher/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { smartCrawlPreview } from './smart-crawl-preview';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const progress = (status: CrawlProgressMessage['status'], processed: number): CrawlProgressMessage => ({
  type: 'crawl_progress',
  crawl_id: 'preview_1',
  status,
  pages_discovered: 9,
  pages_processed: processed,
  pages_linked_to_assistant: 0,
  progress_percentage: 10 * processed,
  current_url: null,
  estimated_total: 9,
  duration: 1,
  assistant_name: null,
  message: null,
});
const result = {
  success: true,
  message: 'Found 3 pages.',
  preview_id: 'preview_1',
  assistant_id: 7,
  files_found: 3,
  processed_files: 3,
  total_files: 0,
  preview_files: [],
  crawl_result: {
    base_url: 'https://crumb.example/',
    total_files: 0,
    preview_files: [],
    sales_pages: [],
    sales_pages_count: 0,
  },
};

/** A progress socket that is refused at once (a proxy without WebSockets, a dropped network). */
class RefusedSocket {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    setTimeout(() => this.onerror?.(), 0);
  }
  close() {}
}

describe('smartCrawlPreview (the scan as a job)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('starts the job, and when the socket drops asks the job again until it is done, passing the progress on', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.stubGlobal('WebSocket', RefusedSocket);
    const answers = [
      json({ status: 'crawling', preview_id: 'preview_1', progress: progress('crawling', 4) }, 202),
      json({ status: 'completed', preview_id: 'preview_1', result }),
    ];
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push(`${init.method} ${url}`);
        if (init.method === 'POST') return json({ success: true, preview_id: 'preview_1', status: 'starting' }, 202);
        return answers.shift()!;
      }),
    );
    const seen: number[] = [];
    const done = smartCrawlPreview(
      { websiteUrl: 'https://crumb.example/', assistantId: 7 },
      { onProgress: (message) => seen.push(message.pages_processed) },
    );
    await vi.advanceTimersByTimeAsync(3500);
    expect(await done).toEqual(result);
    expect(seen).toEqual([4]);
    expect(calls).toEqual([
      'POST /api/v1/web-crawler/smart-crawl-preview/jobs',
      'GET /api/v1/web-crawler/smart-crawl-preview/jobs/preview_1',
      'GET /api/v1/web-crawler/smart-crawl-preview/jobs/preview_1',
    ]);
  });

  it("throws the server's reason when the scan failed", async () => {
    vi.stubGlobal('WebSocket', RefusedSocket);
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) =>
        init.method === 'POST'
          ? json({ success: true, preview_id: 'preview_1', status: 'starting' }, 202)
          : json({ detail: 'The site crumb.example could not be reached.' }, 422),
      ),
    );
    const failed = await smartCrawlPreview({ websiteUrl: 'https://crumb.example/', assistantId: 7 }).catch(
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(ApiError);
    expect((failed as ApiError).detail).toBe('The site crumb.example could not be reached.');
  });
});
