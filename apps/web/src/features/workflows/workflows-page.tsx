import { Alert, Card, Group, Stack, Text } from '@mantine/core';
import { LIMITS } from '@opsdeck/contract/limits';
import {
  DIRECTORY_SORT_FIELDS,
  type DirectoryItem,
  type DirectoryViewInput,
  ROOT_DIRECTORY,
} from '@opsdeck/contract/workflows';
import { IconFilePlus, IconFolderPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnsMenu, useHiddenColumns } from '../../components/data-table/column-visibility';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { type ListState, useListParams } from '../../components/data-table/use-list-params';
import { useSelectableRows } from '../../components/data-table/use-selectable-rows';
import { FileDropTarget } from '../../components/file-drop-target';
import { FloatingCreateMenu } from '../../components/floating-create-button';
import { ListPageHeader } from '../../components/list-page-header';
import { isApiError } from '../../lib/api-client';
import { holds } from '../../lib/authorities';
import { notifyError } from '../../lib/notify';
import { useViewer } from '../../lib/profile-context';
import { STORAGE_KEYS } from '../../lib/session';
import { directoryPageQueryOptions } from '../../resources/workflows';
import type { Place } from './api';
import { DirectoryBreadcrumb } from './directory-breadcrumb';
import { pathOfFolder, useDirectoryPath } from './directory-path';
import { itemColumns, itemKey } from './item-columns';
import { ItemActionsButton, ItemContextMenu } from './item-context-menu';
import { itemActions, placeRules } from './workflow-access';
import { dialogFor, type WorkflowDialog, WorkflowDialogs } from './workflow-dialogs';

const LIST: ListDefaults = { sort: null, sortKeys: DIRECTORY_SORT_FIELDS };

/** The listing call of a directory: its page and sort, and the search and range when the level offers them. */
function viewOf(path: string, list: ListState, searchable: boolean): DirectoryViewInput {
  const view: DirectoryViewInput = { parent: path, page: list.page, size: LIMITS.pageSize };
  if (list.sort) view.sort = `${list.sort.key},${list.sort.direction}`;
  if (!searchable) return view;
  if (list.search) view.search = list.search;
  if (list.range.from !== null) view.from = String(list.range.from);
  if (list.range.to !== null) view.to = String(list.range.to);
  return view;
}

/** A directory that is not there (an old link, one deleted meanwhile) toasts and lists the root. */
function useMissingDirectory(error: unknown, path: string, toRoot: () => void) {
  useEffect(() => {
    if (!isApiError(error) || error.key !== 'ERROR_DIRECTORY_NOT_EXIST' || path === ROOT_DIRECTORY) return;
    notifyError(error, path);
    toRoot();
  }, [error, path, toRoot]);
}

/**
 * Puts the keyboard back on the table: on the row that holds its Tab stop, or on the table itself
 * when it has no rows. A dialog is unmounted when it closes and a folder's rows replace the
 * previous ones, so neither leaves focus anywhere but the page's body (issue 18).
 */
function focusTable(surface: HTMLElement | null) {
  const row = surface?.querySelector<HTMLElement>('[data-row-key][tabindex="0"]');
  if (row) return row.focus();
  const table = surface?.querySelector<HTMLElement>('table');
  if (!table) return;
  // Focusable by script only: the rows are the table's Tab stop once there are some.
  table.tabIndex = -1;
  table.focus();
}

/**
 * Gives the table the focus back once the listing of `path` has settled (`returnFocus(path)`):
 * after a folder opens (the folder's path), or a dialog closes (this directory's). Until then the
 * focus follows the rows as a navigation or a dialog's change replaces them, but only while it is
 * nowhere else (the page's body): a user who moved on keeps their place.
 */
function useReturnFocus(
  surface: RefObject<HTMLElement | null>,
  listing: { path: string; settled: boolean; rows: unknown },
) {
  const [pending, setPending] = useState<string | null>(null);
  const { path, settled, rows } = listing;
  useEffect(() => {
    if (pending === null || rows === undefined) return;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (lost || surface.current?.contains(document.activeElement)) focusTable(surface.current);
    if (settled && path === pending) setPending(null);
  }, [pending, path, settled, rows, surface]);
  return setPending;
}

/**
 * Spec section 2, Workflow list: a folder tree in the URL (`?path=`) with its breadcrumb, a search
 * of the directory and everything below it, a selectable table the server pages and sorts, a
 * context menu and a floating create menu, and the dialogs of workflows and directories. A file
 * dropped on the table starts a workflow in the listed directory.
 */
export function WorkflowsPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const directory = useDirectoryPath();
  const list = useListParams(LIST);
  const rules = placeRules(viewer, directory.path);
  const view = viewOf(directory.path, list, rules.changesShown);
  const searching = view.search !== undefined || view.from !== undefined || view.to !== undefined;
  const listing = useQuery(directoryPageQueryOptions(view));
  const page = listing.data;
  const tenantId = page?.tenantId ?? null;
  // Set once the listing answered: every call on the page sends its tenant.
  const place: Place | null = page ? { directory: page.path, tenantId } : null;
  const [dialog, setDialog] = useState<WorkflowDialog | null>(null);
  const columns = useHiddenColumns(STORAGE_KEYS.workflowColumns);

  useMissingDirectory(listing.error, directory.path, directory.toRoot);
  const loadFailed =
    listing.isError && !(isApiError(listing.error) && listing.error.key === 'ERROR_DIRECTORY_NOT_EXIST');

  const canEdit = holds(viewer, 'EDIT_WORKFLOW') && rules.changesShown;
  const canCreate = holds(viewer, 'CREATE_WORKFLOW') && rules.creatable && place !== null;
  const surface = useRef<HTMLDivElement>(null);
  const returnFocus = useReturnFocus(surface, {
    path: directory.path,
    settled: !listing.isFetching,
    rows: page?.items,
  });
  const closeDialog = () => {
    setDialog(null);
    returnFocus(directory.path);
  };
  const open = (item: DirectoryItem) => {
    if (!holds(viewer, 'VIEW_WORKFLOW')) return;
    if (item.type === 'directory') {
      const folder = pathOfFolder(item);
      directory.open(folder);
      returnFocus(folder);
    } else setDialog(dialogFor('open', [item], tenantId, canEdit));
  };

  const rows = page?.items ?? [];
  const selection = useSelectableRows({ rows, rowKey: itemKey, scope: JSON.stringify(view), onOpen: open });
  const actions = itemActions(viewer, rules, selection.selected);
  const act = (action: 'edit' | 'remove' | 'download', items: readonly DirectoryItem[]) => () =>
    setDialog(dialogFor(action, items, tenantId, canEdit));
  const onSelected = (action: 'edit' | 'remove' | 'download') => act(action, selection.selected);
  const create = (kind: 'createWorkflow' | 'createDirectory', file?: File) => {
    if (place) setDialog(kind === 'createWorkflow' ? { kind, place, file } : { kind, place });
  };

  const allColumns = itemColumns(t, { searching });
  const hideable = allColumns.filter((column) => column.key !== 'name');
  // Every row's actions, by touch as by keyboard; never hidden, on a phone least of all.
  const actionsColumn: Column<DirectoryItem> = {
    key: 'actions',
    header: t('workflows.columns.actions'),
    align: 'right',
    width: 56,
    render: (item) => (
      <ItemActionsButton
        item={item}
        actions={itemActions(viewer, rules, [item])}
        tabbable={selection.tabStop === itemKey(item)}
        on={{
          open: () => open(item),
          edit: act('edit', [item]),
          download: act('download', [item]),
          remove: act('remove', [item]),
        }}
      />
    ),
  };

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('workflows.title')}
        searchPlaceholder={t('workflows.searchPlaceholder')}
        list={list}
        serverSearch
        withRange
        withSearch={rules.changesShown}
        csv={{
          path: '/directory/view',
          query: {},
          fallbackName: 'workflows.csv',
          request: { method: 'POST', body: view, tenantId: null },
          disabled: loadFailed,
        }}
        actions={
          canCreate && (
            <FloatingCreateMenu
              label={t('workflows.create')}
              items={[
                {
                  label: t('workflows.createWorkflow'),
                  icon: <IconFilePlus size={16} aria-hidden="true" />,
                  onClick: () => create('createWorkflow'),
                },
                {
                  label: t('workflows.createDirectory'),
                  icon: <IconFolderPlus size={16} aria-hidden="true" />,
                  onClick: () => create('createDirectory'),
                },
              ]}
            />
          )
        }
      />
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <DirectoryBreadcrumb path={directory.path} href={directory.href} />
            <ColumnsMenu columns={hideable} hidden={columns.hidden} onToggle={columns.toggle} />
          </Group>
          {loadFailed && (
            <Alert color="red" variant="light" role="alert">
              {t('workflows.loadFailed')}
            </Alert>
          )}
          <FileDropTarget
            disabled={!canCreate}
            label={t('workflows.dropHere', { path: page?.path ?? directory.path })}
            onFile={(file) => create('createWorkflow', file)}
          >
            <ItemContextMenu
              items={selection.selected}
              actions={actions}
              on={{
                open: () => {
                  const [item] = selection.selected;
                  if (item) open(item);
                },
                edit: onSelected('edit'),
                download: onSelected('download'),
                remove: onSelected('remove'),
                createWorkflow: () => create('createWorkflow'),
                createDirectory: () => create('createDirectory'),
              }}
            >
              <div {...selection.surfaceProps} ref={surface}>
                <DataTable
                  mode="server"
                  {...list.table}
                  columns={[...columns.shown(allColumns), actionsColumn]}
                  rows={rows}
                  total={page?.total ?? 0}
                  rowKey={itemKey}
                  rowProps={selection.rowProps}
                  label={t('workflows.tableLabel')}
                  emptyText={t(searching ? 'table.empty' : 'workflows.emptyFolder')}
                  loading={listing.isLoading || listing.isPlaceholderData}
                />
              </div>
            </ItemContextMenu>
          </FileDropTarget>
          <Text size="xs" c="dimmed">
            {t('workflows.selectionHelp')}
          </Text>
        </Stack>
      </Card>
      <WorkflowDialogs dialog={dialog} onClose={closeDialog} />
    </Stack>
  );
}
