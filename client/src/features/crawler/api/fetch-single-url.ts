import { FetchSingleUrlResponseSchema } from '@kesher/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST /web-crawler/fetch-single-url (Add Missing Page): fetches one page into the preview it joins. */
export const fetchSingleUrl = ({ url, baseUrl, previewId }: { url: string; baseUrl: string; previewId: string }) =>
  api.post('/web-crawler/fetch-single-url', FetchSingleUrlResponseSchema, {
    body: { url, base_url: baseUrl, preview_id: previewId },
  });

export const useFetchSingleUrl = () => useMutation({ mutationFn: fetchSingleUrl });
