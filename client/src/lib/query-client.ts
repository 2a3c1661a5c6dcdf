import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-error';
import { localStore } from './safe-storage';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Offline, the persisted data is shown instead of a failing request.
        networkMode: 'offlineFirst',
        gcTime: 1000 * 60 * 60 * 24,
        staleTime: 30_000,
        retry: (count, error) =>
          !(error instanceof ApiError && error.status !== null && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { networkMode: 'always' },
    },
  });
}

/** The last-seen dashboard (user, assistants, files) survives reloads and offline starts. */
export const queryPersister =
  typeof window !== 'undefined'
    ? createSyncStoragePersister({ storage: localStore, key: 'kesher-query-cache' })
    : undefined;

/** Only these queries are written to storage: nothing from public pages, nothing secret. */
export const persistedQueryRoots = new Set(['me', 'assistants', 'assistant', 'files']);
