import {
  DRIVE_PAGE_SIZE,
  DriveAuthUrlResponseSchema,
  DriveImportResponseSchema,
  DriveListResponseSchema,
  DriveTokenResponseSchema,
} from '@kesher/contracts';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

/** POST /google-drive/auth/url: the consent screen's address for this assistant (the browser goes there). */
// The answer sets the cookie that binds the link to this browser (the callback refuses any other browser).
export const driveAuthUrl = (assistantId: number) =>
  api.post('/google-drive/auth/url', DriveAuthUrlResponseSchema, {
    body: { assistant_id: assistantId },
    keepCookies: true,
  });

/** POST /google-drive/auth/refresh: a fresh access token from the grant the server keeps. */
export const refreshDriveToken = () => api.post('/google-drive/auth/refresh', DriveTokenResponseSchema, { body: {} });

/** POST /google-drive/auth/revoke: Sign Out (Google forgets the grant). */
export const revokeDrive = (accessToken: string | null) =>
  api.post('/google-drive/auth/revoke', z.object({ detail: z.string() }), {
    body: accessToken ? { access_token: accessToken } : {},
  });

/** POST /google-drive/files/list, 50 a page, searched by name. */
export const listDriveFiles = (input: { accessToken: string; query: string; pageToken?: string }) =>
  api.post('/google-drive/files/list', DriveListResponseSchema, {
    body: {
      access_token: input.accessToken,
      query: input.query,
      page_size: DRIVE_PAGE_SIZE,
      ...(input.pageToken ? { page_token: input.pageToken } : {}),
    },
  });

export const useDriveFiles = (accessToken: string | null, query: string) =>
  useInfiniteQuery({
    queryKey: ['drive-files', accessToken, query],
    enabled: !!accessToken,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => listDriveFiles({ accessToken: accessToken!, query, pageToken: pageParam }),
    getNextPageParam: (last) => last.next_page_token ?? undefined,
  });

/** POST /google-drive/files/import: the picked files become the assistant's knowledge files. */
export const importDriveFiles = (input: { assistantId: number; accessToken: string; fileIds: string[] }) =>
  api.post('/google-drive/files/import', DriveImportResponseSchema, {
    body: {
      assistant_id: input.assistantId,
      access_token: input.accessToken,
      files: input.fileIds.map((id) => ({ id })),
    },
    // Each file is downloaded and read before the answer: more than the usual minute for a big pick.
    timeoutMs: 5 * 60_000,
  });

export const useImportDriveFiles = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importDriveFiles,
    onSuccess: (_, { assistantId }) => queryClient.invalidateQueries({ queryKey: ['files', assistantId] }),
  });
};
