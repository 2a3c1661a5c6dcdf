import type { User } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

/**
 * The signed-in user, or null when there is no session token to ask about. The schema (and with it
 * zod) is loaded only when there is a session: the header of the public landing pages asks this too,
 * and a first-time visitor should not download the validation library for a question with no answer.
 */
export const getMe = async (): Promise<User | null> => {
  if (!tokenStorage.get()) return null;
  const { UserSchema } = await import('@kesher/contracts');
  return api.get('/auth/me', UserSchema);
};

export const meQuery = () => queryOptions({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });

export const useMe = () => useQuery(meQuery());
