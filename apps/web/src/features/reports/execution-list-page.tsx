import { Alert, Card, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ExecutionException } from '@opsdeck/contract/reports';
import { REPORT_PATHS } from '@opsdeck/contract/reports';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvDownloadButton } from '../../components/csv-download-button';
import { DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import type { SortState } from '../../components/data-table/table-state';
import { useListParams } from '../../components/data-table/use-list-params';
import { ListPageHeader } from '../../components/list-page-header';
import { isApiError } from '../../lib/api-client';
import { holds, type Viewer } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { useLiveSource } from '../../lib/live/use-live-source';
import { useViewer } from '../../lib/profile-context';
import {
  type ExecutionListKind,
  type ExecutionPageParams,
  executionListQuery,
  executionPageQueryOptions,
} from '../../resources/reports';
import { executionColumns, SORT_KEY } from './execution-columns';
import { ExecutionDetailsModal } from './execution-details-modal';
import { RefreshIndicator } from './refresh-indicator';
import { browserTimeZone, reportWindow } from './report-range';
import { useReportRefresh } from './use-report-refresh';

const DEFAULT_SORT: SortState = { key: SORT_KEY, direction: 'desc' };
/** Spec section 2: the range opens on today; newest runs first. */
const LIST: ListDefaults = { preset: 'today', sort: DEFAULT_SORT, sortKeys: [SORT_KEY] };

/** Who may read each list (the server's rule): the logs need VIEW_ERROR_LOGS, the exceptions also open to the agent report's tab. */
export function canRead(kind: ExecutionListKind, viewer: Viewer): boolean {
  return holds(viewer, 'VIEW_ERROR_LOGS') || (kind === 'exceptions' && holds(viewer, 'ACCESS_AGENT_REPORT_TAB'));
}

const FILE_KIND: Record<ExecutionListKind, string> = { exceptions: 'exceptions', logs: 'execution-logs' };

/**
 * The exceptions and execution logs pages (spec section 2): the shared search bar with a range
 * (today at first), search, range, sort and page in the URL, a table of 10 the server pages, the
 * details of a run on click or Enter, the filter's rows as CSV, and new runs while the range
 * includes now.
 */
export function ExecutionListPage({ kind }: { kind: ExecutionListKind }) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const allowed = canRead(kind, viewer);
  const params = useListParams(LIST);
  const window = reportWindow(params.range);
  const source = useLiveSource(allowed && holds(viewer, 'VIEW_WORKFLOW_EVENTS'), { agents: false });
  const refresh = useReportRefresh(source, window);
  const tz = useMemo(browserTimeZone, []);
  const sort = params.sort ?? DEFAULT_SORT;
  const pageParams: ExecutionPageParams = {
    ...window,
    page: params.page,
    direction: sort.direction,
    search: params.search,
    tz,
  };
  const list = useQuery({
    ...executionPageQueryOptions(kind, pageParams),
    enabled: allowed,
    refetchInterval: refresh.refetchInterval,
  });
  const [open, setOpen] = useState<ExecutionException | null>(null);
  const hintId = useId();

  const strings = `reports.${kind}`;
  if (!allowed) {
    return (
      <Stack gap="lg">
        <ListPageHeader title={t(`${strings}.title`)} searchPlaceholder="" list={params} withSearch={false} />
        <Text c="dimmed">{t(`${strings}.noPermission`)}</Text>
      </Stack>
    );
  }

  const openOnKey = (row: ExecutionException) => (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    setOpen(row);
  };
  const day = (epoch: number) => dayjs(epoch).format('YYYYMMDD');

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t(`${strings}.title`)}
        searchPlaceholder={t(`${strings}.searchPlaceholder`)}
        serverSearch
        withRange
        initialPreset="today"
        list={params}
        actions={
          <Group gap="sm" align="center" wrap="wrap">
            <RefreshIndicator mode={refresh.mode} />
            <CsvDownloadButton
              path={REPORT_PATHS[kind]}
              query={executionListQuery(pageParams)}
              fallbackName={t('reports.csv.fileName', {
                kind: FILE_KIND[kind],
                from: day(window.from),
                to: day(window.to),
              })}
              disabled={list.isError}
            />
          </Group>
        }
      />
      {list.isError && (
        <Alert color="red" title={t('reports.agent.loadFailed')}>
          {errorText(isApiError(list.error) ? list.error.errorKey : 'ERROR_GENERAL_INTERNAL')}
        </Alert>
      )}
      <Card withBorder radius="md" padding="md">
        <VisuallyHidden id={hintId}>{t('reports.details.rowHint')}</VisuallyHidden>
        <DataTable
          mode="server"
          {...params.table}
          columns={executionColumns(kind, t)}
          rows={list.data?.items ?? []}
          total={list.data?.total ?? 0}
          totalCapped={list.data?.totalCapped}
          rowKey={(row) => row.id}
          label={t(`${strings}.tableLabel`)}
          emptyText={t(`${strings}.empty`)}
          loading={list.isLoading || list.isPlaceholderData}
          onRowClick={setOpen}
          rowProps={(row) => ({ tabIndex: 0, onKeyDown: openOnKey(row), 'aria-describedby': hintId })}
        />
      </Card>
      <ExecutionDetailsModal run={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
