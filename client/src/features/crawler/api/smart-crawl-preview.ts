import { crawlerLimits, SmartCrawlPreviewResponseSchema } from '@kesher/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /web-crawler/smart-crawl-preview (spec §7): scans the site and answers its scored pages; waits up to 600 s. */
export const smartCrawlPreview = ({ websiteUrl, assistantId }: { websiteUrl: string; assistantId: number }) =>
  api.post('/web-crawler/smart-crawl-preview', SmartCrawlPreviewResponseSchema, {
    body: { website_url: websiteUrl, keywords: [], max_depth: crawlerLimits.preview.maxDepth, focus_areas: [], assistant_id: assistantId },
    timeoutMs: crawlerLimits.previewTimeoutMs,
  });

export const useSmartCrawlPreview = () => useMutation({ mutationFn: smartCrawlPreview });
