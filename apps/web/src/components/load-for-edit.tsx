import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { notifyError } from '../lib/notify';

interface LoadForEditProps<TData, TKey extends QueryKey> {
  /** The record's detail query. */
  query: UseQueryOptions<TData, Error, TData, TKey>;
  /** The list to reload when the record cannot be read. */
  invalidate: QueryKey;
  onClose: () => void;
  /** The edit dialog, given the record once it has loaded. */
  children: (record: TData) => ReactNode;
}

/**
 * Loads a record fresh before its edit dialog opens; if that fails the dialog closes with a toast
 * and the list reloads (spec section 4).
 */
export function LoadForEdit<TData, TKey extends QueryKey>({
  query,
  invalidate,
  onClose,
  children,
}: LoadForEditProps<TData, TKey>) {
  const queryClient = useQueryClient();
  // Fresh from the server every time, whatever is cached: the dialog edits what is stored now.
  const detail = useQuery({ ...query, staleTime: 0, retry: false });
  useEffect(() => {
    if (!detail.isError) return;
    notifyError(detail.error);
    onClose();
    void queryClient.invalidateQueries({ queryKey: invalidate });
  }, [detail.isError, detail.error, onClose, queryClient, invalidate]);
  if (!detail.data) return null;
  return children(detail.data);
}
