import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import type { ReactNode } from 'react';
import { i18nextTextSource } from '@/lib/i18n';
import { createQueryClient, persistedQueryRoots, queryPersister } from '@/lib/query-client';
import { TextSourceProvider } from '@/lib/texts';
import { tokenStorage } from '@/lib/token-storage';

const queryClient = createQueryClient();
// Without a stored token there is no session to ask about: signed out from the first render (which is
// also what the prerendered public pages show), instead of a "checking" state first.
if (!tokenStorage.get()) queryClient.setQueryData(['me'], null);

/** App-wide providers: the query cache, persisted to storage so the last dashboard is there offline. */
export function AppProvider({ children }: { children: ReactNode }) {
  if (!queryPersister) return null;
  return (
    <PersistQueryClientProvider
      client={queryClient}
      persistOptions={{
        persister: queryPersister,
        maxAge: 1000 * 60 * 60 * 24,
        // Bumped when cached shapes change, so an old cache is dropped rather than misread.
        buster: 'v1',
        dehydrateOptions: {
          shouldDehydrateQuery: (q) => q.state.status === 'success' && persistedQueryRoots.has(String(q.queryKey[0])),
        },
      }}
      // The restored cache shows the last-seen data at once; refreshing it behind the scenes keeps a
      // reload from showing a snapshot older than what the server already has.
      onSuccess={() => queryClient.invalidateQueries()}
    >
      <TextSourceProvider value={i18nextTextSource}>{children}</TextSourceProvider>
    </PersistQueryClientProvider>
  );
}
