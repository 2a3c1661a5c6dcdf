import { type User, UserSchema } from '@kesher/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { tokenStorage } from '@/lib/token-storage';

/** The signed-in user, or null when there is no session token to ask about. */
export const getMe = async (): Promise<User | null> => (tokenStorage.get() ? api.get('/auth/me', UserSchema) : null);

export const meQuery = () => queryOptions({ queryKey: ['me'], queryFn: getMe, staleTime: 5 * 60_000 });

export const useMe = () => useQuery(meQuery());
