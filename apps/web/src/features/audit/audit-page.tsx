import { Alert, Button, Card, Group, Select, Stack, Text, VisuallyHidden } from '@mantine/core';
import { AUDIT_PATHS, type AuditRecord } from '@opsdeck/contract/audit';
import { LIMITS } from '@opsdeck/contract/limits';
import { IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { ListPageHeader } from '../../components/list-page-header';
import { isApiError } from '../../lib/api-client';
import { holdsAny, isAdmin } from '../../lib/authorities';
import { errorText } from '../../lib/i18n';
import { useViewer } from '../../lib/profile-context';
import { truncateText } from '../../lib/truncate';
import {
  type AuditFilter,
  auditListQuery,
  auditPageQueryOptions,
  auditRecordQueryOptions,
} from '../../resources/audit';
import { usersQueryOptions } from '../../resources/users';
import { ActorName } from './actor-name';
import {
  AUDIT_ENTITY_TYPES,
  actionLabel,
  actionOfType,
  actionOptions,
  entityTypeLabel,
  formatAuditTime,
} from './audit-format';
import { AuditRecordModal, entityText } from './audit-record-modal';
import { type AuditFilters, useAuditFilters } from './use-audit-filters';

/** Every record at first, newest first (the server's only order): no sort, no range. */
const LIST: ListDefaults = {};

/** The users list serves the person filter; the server opens it with these (GET /api/user/get-user-list). */
const USER_LIST_READERS = ['VIEW_USER', 'ACCESS_USER_TAB'] as const;

function auditColumns(t: TFunction, showsCompany: boolean): Column<AuditRecord>[] {
  return [
    {
      key: 'at',
      header: t('audit.columns.at'),
      value: (row) => row.at,
      render: (row) => <span style={{ whiteSpace: 'nowrap' }}>{formatAuditTime(row.at)}</span>,
      truncate: false,
    },
    {
      key: 'person',
      header: t('audit.columns.person'),
      value: (row) => row.actor.name,
      render: (row) => <ActorName actor={row.actor} />,
    },
    ...(showsCompany
      ? [
          {
            key: 'company',
            header: t('audit.columns.company'),
            value: (row: AuditRecord) => row.companyName ?? t('audit.provider'),
            priority: 3 as const,
          },
        ]
      : []),
    { key: 'action', header: t('audit.columns.action'), value: (row) => actionLabel(t, row.action) },
    { key: 'entity', header: t('audit.columns.entity'), value: (row) => entityText(t, row), priority: 2 },
    { key: 'address', header: t('audit.columns.address'), value: (row) => row.address, priority: 3 },
  ];
}

/** The person select: the tenant's users, and the chosen one even when the list lacks them (archived). */
function usePersonOptions(actor: string | null, records: readonly AuditRecord[], enabled: boolean) {
  const { t } = useTranslation();
  const users = useQuery({ ...usersQueryOptions(), enabled });
  const options = (users.data ?? [])
    .map((user) => ({ value: String(user.id), label: truncateText(user.completeName, LIMITS.truncate.dropdownName) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  if (actor !== null && !options.some((option) => option.value === actor)) {
    const named = records.find((record) => String(record.actor.id) === actor)?.actor.name;
    options.unshift({ value: actor, label: named ?? t('audit.filters.personUnknown', { id: actor }) });
  }
  return { options, loading: users.isLoading };
}

interface AuditFiltersBarProps {
  filters: AuditFilters;
  onChange: (patch: Partial<AuditFilters>) => void;
  records: readonly AuditRecord[];
}

/** Person, action and entity type; a chosen type narrows the actions offered. */
function AuditFiltersBar({ filters, onChange, records }: AuditFiltersBarProps) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const canListUsers = holdsAny(viewer, USER_LIST_READERS);
  // The users list is read once the person select is opened (or names someone): a provider's is long.
  const [wantsUsers, setWantsUsers] = useState(false);
  const people = usePersonOptions(filters.actor, records, canListUsers && (wantsUsers || filters.actor !== null));
  const common = {
    clearable: true,
    searchable: true,
    nothingFoundMessage: t('audit.filters.nothingFound'),
    comboboxProps: { withinPortal: true },
    w: 240,
  } as const;
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      {canListUsers && (
        <Select
          {...common}
          label={t('audit.filters.person')}
          placeholder={t('audit.filters.personPlaceholder')}
          data={people.options}
          value={filters.actor}
          onChange={(actor) => onChange({ actor })}
          onDropdownOpen={() => setWantsUsers(true)}
          limit={100}
          clearButtonProps={{ 'aria-label': t('audit.filters.clearPerson') }}
        />
      )}
      <Select
        {...common}
        label={t('audit.filters.action')}
        placeholder={t('audit.filters.actionPlaceholder')}
        data={actionOptions(t, filters.entityType)}
        value={filters.action}
        onChange={(action) => onChange({ action })}
        clearButtonProps={{ 'aria-label': t('audit.filters.clearAction') }}
      />
      <Select
        {...common}
        label={t('audit.filters.entityType')}
        placeholder={t('audit.filters.entityTypePlaceholder')}
        data={withCurrent(
          AUDIT_ENTITY_TYPES.map((type) => ({ value: type, label: entityTypeLabel(t, type) })),
          filters.entityType,
          (type) => entityTypeLabel(t, type),
        )}
        value={filters.entityType}
        // Another type drops the entity shown and an action of another type.
        onChange={(entityType) =>
          onChange({
            entityType,
            entityId: null,
            action: filters.action && entityType && !actionOfType(filters.action, entityType) ? null : filters.action,
          })
        }
        w={200}
        clearButtonProps={{ 'aria-label': t('audit.filters.clearEntityType') }}
      />
    </Group>
  );
}

/** A select's choices plus the value in the URL when they lack it, so the select still shows it. */
function withCurrent(
  options: { value: string; label: string }[],
  current: string | null,
  label: (value: string) => string,
) {
  return current === null || options.some((option) => option.value === current)
    ? options
    : [...options, { value: current, label: label(current) }];
}

/**
 * The audit page (issue 19): the shared search bar and range, filters by person, action and entity
 * type, a table of 10 the server pages, newest first, and a record's before/after view on click or
 * Enter. Everything (filters and the open record) is in the URL; an area's 'History' link opens it
 * on one entity. The server scopes the records: a company's own, or every company's for the provider.
 */
export function AuditPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const showsCompany = isAdmin(viewer);
  const params = useListParams(LIST);
  const { filters, setFilters, record, setRecord } = useAuditFilters();
  const filter: AuditFilter = { search: params.search, ...params.range, ...filters };
  const list = useQuery(auditPageQueryOptions({ ...filter, page: params.page }));
  const rows = list.data?.items ?? [];
  const onPage = rows.find((row) => row.id === record);
  const one = useQuery({ ...auditRecordQueryOptions(record ?? 0), enabled: record !== null && !onPage });
  const hintId = useId();

  const openOnKey = (row: AuditRecord) => (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    setRecord(row.id);
  };

  const entityName = filters.entityId
    ? (rows.find((row) => row.entityId === filters.entityId)?.entityName ??
      t('audit.filters.entityUnnamed', { id: filters.entityId }))
    : null;

  return (
    <Stack gap="lg">
      <ListPageHeader
        title={t('audit.title')}
        searchPlaceholder={t('audit.searchPlaceholder')}
        serverSearch
        withRange
        list={params}
        csv={{
          path: AUDIT_PATHS.list,
          query: auditListQuery(filter),
          fallbackName: t('audit.csvFileName'),
          disabled: list.isError,
        }}
      />
      <AuditFiltersBar filters={filters} onChange={setFilters} records={rows} />
      {filters.entityId && (
        <Group gap="sm" wrap="wrap">
          <Text size="sm" fw={600}>
            {t('audit.filters.entity', {
              type: entityTypeLabel(t, filters.entityType ?? ''),
              name: truncateText(entityName ?? '', LIMITS.truncate.tableContent),
            })}
          </Text>
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconX size={14} aria-hidden="true" />}
            onClick={() => setFilters({ entityType: null, entityId: null })}
          >
            {t('audit.filters.showAll')}
          </Button>
        </Group>
      )}
      {list.isError && (
        <Alert color="red" title={t('audit.loadFailed')}>
          {errorText(isApiError(list.error) ? list.error.errorKey : 'ERROR_GENERAL_INTERNAL')}
        </Alert>
      )}
      <Card withBorder radius="md" padding="md">
        <VisuallyHidden id={hintId}>{t('audit.rowHint')}</VisuallyHidden>
        <DataTable
          mode="server"
          {...params.table}
          columns={auditColumns(t, showsCompany)}
          rows={rows}
          total={list.data?.total ?? 0}
          totalCapped={list.data?.totalCapped}
          rowKey={(row) => row.id}
          label={t('audit.tableLabel')}
          emptyText={t('audit.empty')}
          loading={list.isLoading || list.isPlaceholderData}
          onRowClick={(row) => setRecord(row.id)}
          rowProps={(row) => ({
            tabIndex: 0,
            onKeyDown: openOnKey(row),
            'aria-describedby': hintId,
          })}
        />
      </Card>
      <AuditRecordModal
        id={record}
        record={onPage ?? one.data}
        loading={one.isLoading}
        failed={one.isError}
        showsCompany={showsCompany}
        onClose={() => setRecord(null)}
      />
    </Stack>
  );
}
