import {
  crawlerLimits,
  CrawlProgressMessageSchema,
  PreviewJobSchema,
  PreviewJobStartedSchema,
  type CrawlProgressMessage,
  type SmartCrawlPreviewResponse,
} from '@kesher/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { progressSocketUrl } from '../hooks/use-crawl-progress';

export interface PreviewInput {
  websiteUrl: string;
  assistantId: number;
}

/** The spec's preview body (§7: website_url, keywords [], max_depth 2, focus_areas []). */
const previewBody = ({ websiteUrl, assistantId }: PreviewInput) => ({
  website_url: websiteUrl,
  keywords: [],
  max_depth: crawlerLimits.preview.maxDepth,
  focus_areas: [],
  assistant_id: assistantId,
});

/** How long a socket that dropped (or never opened) waits before the job is asked again. */
const RECHECK_MS = 3000;

/** Resolves on the scan's last message, or when the socket closes or fails (the job is then asked over HTTP). */
function nextSettle(
  previewId: string,
  onProgress: (message: CrawlProgressMessage) => void,
  signal?: AbortSignal,
): Promise<'finished' | 'dropped'> {
  return new Promise((resolve) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(progressSocketUrl(previewId));
    } catch {
      resolve('dropped');
      return;
    }
    const done = (how: 'finished' | 'dropped') => {
      signal?.removeEventListener('abort', abort);
      socket.onclose = null;
      socket.onerror = null;
      socket.onmessage = null;
      socket.close();
      resolve(how);
    };
    const abort = () => done('dropped');
    signal?.addEventListener('abort', abort);
    socket.onmessage = (event) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = CrawlProgressMessageSchema.safeParse(data);
      if (!parsed.success) return;
      onProgress(parsed.data);
      if (parsed.data.status === 'completed' || parsed.data.status === 'error' || parsed.data.type === 'error')
        done('finished');
    };
    socket.onerror = () => done('dropped');
    socket.onclose = () => done('dropped');
  });
}

/**
 * The website scan as a job (issue 25 item 2): POST /web-crawler/smart-crawl-preview/jobs answers 202 with
 * the preview id at once; the scan's progress comes over the progress socket (/ws/crawl-progress/{id});
 * once it says the scan ended — or the socket drops — the answer is fetched from
 * GET /web-crawler/smart-crawl-preview/jobs/{id}: the spec's preview result, or the server's reason (422)
 * thrown as an ApiError. No request stays open for the scan's length.
 */
export async function smartCrawlPreview(
  input: PreviewInput,
  options: { onProgress?: (message: CrawlProgressMessage) => void; signal?: AbortSignal } = {},
): Promise<SmartCrawlPreviewResponse> {
  const started = await api.post('/web-crawler/smart-crawl-preview/jobs', PreviewJobStartedSchema, {
    body: previewBody(input),
    signal: options.signal,
  });
  const deadline = Date.now() + crawlerLimits.previewTimeoutMs;
  for (;;) {
    const how = await nextSettle(started.preview_id, options.onProgress ?? (() => undefined), options.signal);
    const job = await api.get(
      `/web-crawler/smart-crawl-preview/jobs/${encodeURIComponent(started.preview_id)}`,
      PreviewJobSchema,
      { signal: options.signal },
    );
    if (job.status === 'completed') return job.result;
    options.onProgress?.(job.progress);
    if (options.signal?.aborted) throw new ApiError('network', null);
    if (Date.now() > deadline) throw new ApiError('timeout', null);
    // Still running and the socket dropped: wait a moment before following it again.
    if (how === 'dropped') await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
  }
}

export const useSmartCrawlPreview = (onProgress?: (message: CrawlProgressMessage) => void) =>
  useMutation({ mutationFn: (input: PreviewInput) => smartCrawlPreview(input, { onProgress }) });
