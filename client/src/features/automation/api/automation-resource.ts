import { AutomationDeletedResponseSchema } from '@kesher/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api-client';

/**
 * Workflows, guidelines and actions are three lists with the same four calls (spec part 2 §7): GET the
 * owner's list, POST one, PUT /{id} the whole item, DELETE /{id}. One factory makes the call, its query
 * options and its hooks for each, so the three pages cannot drift apart in how they load and refresh.
 */
export function automationResource<Item extends { id: string }, CreateBody, UpdateBody = CreateBody>(
  path: `/${string}`,
  itemSchema: z.ZodType<Item>,
  listSchema: z.ZodType<Item[]>,
) {
  const queryKey = ['automation', path.slice(1)] as const;
  const list = () => api.get(path, listSchema);
  const query = () => queryOptions({ queryKey, queryFn: list });
  const create = (body: CreateBody) => api.post(path, itemSchema, { body });
  const update = ({ id, body }: { id: string; body: UpdateBody }) =>
    api.put(`${path}/${encodeURIComponent(id)}`, itemSchema, { body });
  const remove = (id: string) => api.delete(`${path}/${encodeURIComponent(id)}`, AutomationDeletedResponseSchema);

  /** A change refreshes the list (and, for actions, the pages that show linked action names). */
  const useRefresh = () => {
    const queryClient = useQueryClient();
    return () => queryClient.invalidateQueries({ queryKey: ['automation'] });
  };
  return {
    queryKey,
    list,
    query,
    create,
    update,
    remove,
    useList: () => useQuery(query()),
    useCreate: () => useMutation({ mutationFn: create, onSuccess: useRefresh() }),
    useUpdate: () => {
      const queryClient = useQueryClient();
      const refresh = useRefresh();
      return useMutation({
        mutationFn: update,
        // The saved item replaces its card at once (a toggled guideline flips without waiting for the list).
        onSuccess: (saved) => {
          queryClient.setQueryData<Item[]>(queryKey, (items) =>
            items?.map((item) => (item.id === saved.id ? saved : item)),
          );
          return refresh();
        },
      });
    },
    useRemove: () => useMutation({ mutationFn: remove, onSuccess: useRefresh() }),
  };
}
