import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

/**
 * A create, update or delete call that reloads the resources it touched once it settles. It
 * reloads after a failure too: a refusal such as "does not exist" or "has children" means the
 * list on screen is stale (spec section 4: the list reloads when a record cannot be read).
 * `invalidates` are resource roots (['departments']), so every view of them refreshes. The call
 * does not wait for the reload: the dialog closes as soon as the server has answered.
 */
export function useResourceMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  invalidates: readonly QueryKey[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () => {
      for (const queryKey of invalidates) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
