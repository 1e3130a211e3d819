import { Card, Text } from '@mantine/core';
import type { AlertRule } from '@opsdeck/contract/alerts';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { TenantSectionProps } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { actionsColumn, RowActions } from '../../components/row-actions';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { channelsText, describeParams, kindLabel, ruleName } from './alert-kinds';
import { AlertRuleFormModal } from './alert-rule-form';
import { alertRulesQueryOptions, DELETE_ALERT_RULE_FAILURE, useDeleteAlertRule } from './api';

type Open = { kind: 'create' } | { kind: 'edit'; row: AlertRule } | { kind: 'delete'; row: AlertRule } | null;

/** The search matches the kind, the parameters in words or a channel, as the table shows them. */
export function matchesRule(t: TFunction, rule: AlertRule, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (!needle) return true;
  return [kindLabel(t, rule.kind), describeParams(t, rule.kind, rule.params), channelsText(t, rule.channels)].some(
    (value) => value.toLowerCase().includes(needle),
  );
}

function ruleColumns(
  t: TFunction,
  actions: { edit: (row: AlertRule) => void; remove: (row: AlertRule) => void },
): Column<AlertRule>[] {
  return [
    { key: 'kind', header: t('alerts.kindHeader'), value: (row) => kindLabel(t, row.kind), sortable: true },
    {
      key: 'params',
      header: t('alerts.conditionHeader'),
      render: (row) => <Text size="sm">{describeParams(t, row.kind, row.params)}</Text>,
      value: (row) => describeParams(t, row.kind, row.params),
      sortable: true,
    },
    {
      key: 'channels',
      header: t('alerts.channelsLabel'),
      value: (row) => channelsText(t, row.channels),
      sortable: true,
      priority: 2,
    },
    {
      key: 'updatedAt',
      header: t('alerts.updated'),
      value: (row) => row.updatedAt,
      render: (row) => formatEpoch(row.updatedAt, DATE_FORMATS.date),
      sortable: true,
      priority: 3,
    },
    actionsColumn(t('alerts.actions'), (row: AlertRule) => (
      <RowActions
        editLabel={t('alerts.editNamed', { name: ruleName(t, row) })}
        editTooltip={t('alerts.edit')}
        onEdit={() => actions.edit(row)}
        deleteLabel={t('alerts.deleteNamed', { name: ruleName(t, row) })}
        deleteTooltip={t('alerts.delete')}
        onDelete={() => actions.remove(row)}
      />
    )),
  ];
}

/**
 * A company's alert rules (docs/alerts.md), the same on the alerts page and on a company's page
 * for the provider: what each watches, its parameters in words and its channels, with edit and
 * delete.
 */
export function AlertRules({ tenant, header, search = '', table }: TenantSectionProps) {
  const { t } = useTranslation();
  const list = useQuery(alertRulesQueryOptions(tenant));
  const remove = useDeleteAlertRule(tenant);
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const rows = useMemo(() => (list.data ?? []).filter((row) => matchesRule(t, row, search)), [list.data, search, t]);
  const columns = ruleColumns(t, {
    edit: (row) => setOpen({ kind: 'edit', row }),
    remove: (row) => setOpen({ kind: 'delete', row }),
  });

  return (
    <>
      {header(() => setOpen({ kind: 'create' }))}
      <Card withBorder radius="md" padding="md">
        <DataTable
          {...table}
          columns={columns}
          rows={rows}
          rowKey={(row) => row.id}
          label={t('alerts.tableLabel')}
          emptyText={search ? undefined : t('alerts.empty')}
          loading={list.isLoading}
        />
      </Card>
      {(open?.kind === 'create' || open?.kind === 'edit') && (
        <AlertRuleFormModal tenant={tenant} rule={open.kind === 'edit' ? open.row : undefined} onClose={close} />
      )}
      {open?.kind === 'delete' && (
        <DeleteModal
          area="alerts"
          name={ruleName(t, open.row)}
          success={t('alerts.deleted', { name: kindLabel(t, open.row.kind) })}
          remove={() => remove.mutateAsync(open.row.id)}
          failure={DELETE_ALERT_RULE_FAILURE}
          onClose={close}
        />
      )}
    </>
  );
}
