import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import type { FailurePolicy } from '../lib/failure-policy';
import { DeleteModal } from './delete-modal';
import { LoadForEdit } from './load-for-edit';

type Open<Row> = { kind: 'create' } | { kind: 'edit'; id: number } | { kind: 'delete'; row: Row } | null;

/** Which of a list page's dialogs is open: create, edit of a row, or delete of a row. */
export function useRowDialogs<Row extends { id: number }>() {
  const [open, setOpen] = useState<Open<Row>>(null);
  return {
    open,
    create: () => setOpen({ kind: 'create' }),
    edit: (row: Row) => setOpen({ kind: 'edit', id: row.id }),
    remove: (row: Row) => setOpen({ kind: 'delete', row }),
    close: () => setOpen(null),
  };
}

export type RowDialogsState<Row extends { id: number }> = ReturnType<typeof useRowDialogs<Row>>;

export interface RowDialogsProps<Row extends { id: number }, TKey extends QueryKey> {
  dialogs: RowDialogsState<Row>;
  /** The create (no row) and edit dialog, open while rendered. */
  form: (row: Row | undefined, onClose: () => void) => ReactNode;
  /** The row's detail query: the edit dialog opens on what is stored now (LoadForEdit). */
  load: (id: number) => UseQueryOptions<Row, Error, Row, TKey>;
  /** The resource's root key, reloaded when the row cannot be read. */
  invalidate: QueryKey;
  /** The delete dialog: the area's strings, the call and its failure keys (DeleteModal). */
  remove: { area: string; name: (row: Row) => string; call: (row: Row) => Promise<unknown>; failure: FailurePolicy };
}

/** A list page's create, edit and delete dialogs, each rendered only while open. */
export function RowDialogs<Row extends { id: number }, TKey extends QueryKey>({
  dialogs,
  form,
  load,
  invalidate,
  remove,
}: RowDialogsProps<Row, TKey>) {
  const { open, close } = dialogs;
  if (open?.kind === 'create') return form(undefined, close);
  if (open?.kind === 'edit')
    return (
      <LoadForEdit query={load(open.id)} invalidate={invalidate} onClose={close}>
        {(row) => form(row, close)}
      </LoadForEdit>
    );
  if (open?.kind === 'delete')
    return (
      <DeleteModal
        area={remove.area}
        name={remove.name(open.row)}
        remove={() => remove.call(open.row)}
        failure={remove.failure}
        onClose={close}
      />
    );
  return null;
}
