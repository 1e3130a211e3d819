import type { Ok } from '@opsdeck/contract/auth';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type Tenant, tenantOption } from '../resources/tenant';
import { apiRequest } from './api-client';

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

/** Where a resource's writes go: create is `POST create`, update `PUT ${one}/${id}`, delete `DELETE ${remove ?? one}/${id}`. */
export interface CrudPaths {
  create: string;
  one: string;
  remove?: string;
}

/**
 * A resource's create, update and delete calls as hooks, each reloading `touched` (resource roots)
 * once it settles. `tenant` is the company acted on: an admin's pick in a create form, the row's
 * own tenant in an update or delete; undefined keeps the stored one.
 */
export function crudMutations<Row, Create, Update = Create>(paths: CrudPaths, touched: readonly QueryKey[]) {
  return {
    useCreate: () =>
      useResourceMutation(
        ({ body, tenant }: { body: Create; tenant?: Tenant }) =>
          apiRequest<Row>(paths.create, { method: 'POST', body, ...tenantOption(tenant) }),
        touched,
      ),
    useUpdate: () =>
      useResourceMutation(
        ({ id, body, tenant }: { id: number; body: Update; tenant?: Tenant }) =>
          apiRequest<Row>(`${paths.one}/${id}`, { method: 'PUT', body, ...tenantOption(tenant) }),
        touched,
      ),
    useDelete: () =>
      useResourceMutation(
        ({ id, tenant }: { id: number; tenant?: Tenant }) =>
          apiRequest<Ok>(`${paths.remove ?? paths.one}/${id}`, { method: 'DELETE', ...tenantOption(tenant) }),
        touched,
      ),
  };
}
