import { ActionIcon, Card, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { License } from '@opsdeck/contract/licenses';
import { LIMITS } from '@opsdeck/contract/limits';
import { IconBan, IconKey, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ConfirmModal } from '../../components/confirm-modal';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { FloatingCreateButton } from '../../components/floating-create-button';
import { canViewHistory, HistoryLink } from '../../components/history-link';
import { actionsColumn } from '../../components/row-actions';
import { RowDialogs, useRowDialogs } from '../../components/row-dialogs';
import { holds } from '../../lib/authorities';
import { formatEpoch } from '../../lib/dates';
import { PATHS } from '../../lib/paths';
import { useViewer } from '../../lib/profile-context';
import { truncateText } from '../../lib/truncate';
import {
  companyLicenseQueryOptions,
  companyLicensesQueryOptions,
  type LicenseOwner,
  licenseQueryKeys,
} from '../../resources/licenses';
import { AddLicenseModal } from './add-license-form';
import { CHANGE_LICENSE_FAILURE, useDeleteLicense, useInvalidateLicense } from './api';
import { LicenseStateBadge, LicenseTypeBadge, licenseName, licenseState } from './license-display';
import { RenewLicenseModal } from './renew-license-form';

const LIST: ListDefaults = { sort: { key: 'issueDate', direction: 'desc' } };

function Action({ label, children }: { label: string; children: ReactNode }) {
  return <Tooltip label={label}>{children}</Tooltip>;
}

/**
 * Spec section 2, Company page: the company's licences (type badge, label, issue and expiration
 * dates, allowed and remaining keys, and whether it is still good), with view keys, renew,
 * invalidate, delete and create, each by its authority.
 */
export function LicensesTable({ company }: { company: LicenseOwner }) {
  const { t } = useTranslation();
  const viewer = useViewer();
  const params = useListParams(LIST);
  const list = useQuery(companyLicensesQueryOptions(company));
  const dialogs = useRowDialogs<License>();
  const [invalidating, setInvalidating] = useState<License | null>(null);
  const invalidate = useInvalidateLicense(company);
  const remove = useDeleteLicense(company);

  const canViewKeys = holds(viewer, 'ACCESS_COMPANY_LICENSE_KEY_PAGE');
  const canEdit = holds(viewer, 'EDIT_LICENSE');
  const canDelete = holds(viewer, 'DELETE_LICENSE');
  const showsHistory = canViewHistory(viewer);

  const actions = (license: License) => {
    const name = licenseName(t, license);
    // An invalidated licence is over: it can be looked at and deleted, not renewed again.
    const live = !license.invalidated;
    return (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <HistoryLink entityType="license" entityId={license.id} name={name} />
        {canViewKeys && (
          <Action label={t('licenses.viewKeys')}>
            <ActionIcon
              variant="subtle"
              component={Link}
              to={PATHS.licenseKeys.build({ companyId: company.id, licenseId: license.id })}
              aria-label={t('licenses.viewKeysNamed', { name })}
            >
              <IconKey size={18} />
            </ActionIcon>
          </Action>
        )}
        {canEdit && live && (
          <Action label={t('licenses.renew')}>
            <ActionIcon
              variant="subtle"
              aria-label={t('licenses.renewNamed', { name })}
              onClick={() => dialogs.edit(license)}
            >
              <IconRefresh size={18} />
            </ActionIcon>
          </Action>
        )}
        {canEdit && live && (
          <Action label={t('licenses.invalidate')}>
            <ActionIcon
              variant="subtle"
              color="orange"
              aria-label={t('licenses.invalidateNamed', { name })}
              onClick={() => setInvalidating(license)}
            >
              <IconBan size={18} />
            </ActionIcon>
          </Action>
        )}
        {canDelete && (
          <Action label={t('licenses.delete')}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('licenses.deleteNamed', { name })}
              onClick={() => dialogs.remove(license)}
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Action>
        )}
      </Group>
    );
  };

  const columns: Column<License>[] = [
    {
      key: 'type',
      header: t('licenses.type'),
      value: (row) => row.type.key,
      render: (row) => <LicenseTypeBadge type={row.type} />,
      sortable: true,
      width: 120,
    },
    { key: 'label', header: t('licenses.label'), value: (row) => row.label || null, sortable: true },
    {
      key: 'issueDate',
      header: t('licenses.issueDate'),
      value: (row) => row.issueDate,
      render: (row) => formatEpoch(row.issueDate),
      sortable: true,
      priority: 3,
    },
    {
      key: 'expirationDate',
      header: t('licenses.expirationDate'),
      value: (row) => row.expirationDate,
      render: (row) => formatEpoch(row.expirationDate),
      sortable: true,
      priority: 2,
    },
    { key: 'maxAccounts', header: t('licenses.maxAccounts'), value: (row) => row.maxAccounts, sortable: true },
    {
      key: 'unusedAccounts',
      header: t('licenses.unusedAccounts'),
      value: (row) => row.unusedAccounts,
      sortable: true,
      priority: 2,
    },
    {
      key: 'state',
      header: t('licenses.stateHeader'),
      value: (row) => t(`licenses.state.${licenseState(row)}`),
      render: (row) => <LicenseStateBadge invalidated={row.invalidated} expired={row.expired} />,
      sortable: true,
    },
    // Up to four icons (five with History): wider than the other areas' two.
    ...(canViewKeys || canEdit || canDelete || showsHistory
      ? [{ ...actionsColumn(t('licenses.actions'), actions), width: showsHistory ? 192 : 160 }]
      : []),
  ];

  return (
    <Stack gap="sm" component="section" aria-labelledby="company-licenses-title">
      <Group justify="space-between" align="center">
        <Title order={2} fz={20} id="company-licenses-title">
          {t('licenses.title')}
        </Title>
        {holds(viewer, 'CREATE_LICENSE') && (
          <FloatingCreateButton label={t('licenses.create')} onClick={dialogs.create} />
        )}
      </Group>
      <Card withBorder radius="md" padding="md">
        <DataTable
          {...params.table}
          columns={columns}
          rows={list.data ?? []}
          rowKey={(row) => row.id}
          label={t('licenses.tableLabel')}
          emptyText={t('licenses.empty')}
          loading={list.isLoading}
        />
      </Card>
      <RowDialogs
        dialogs={dialogs}
        form={(license, onClose) =>
          license ? (
            <RenewLicenseModal company={company} license={license} onClose={onClose} />
          ) : (
            <AddLicenseModal company={company} onClose={onClose} />
          )
        }
        load={(id) => companyLicenseQueryOptions(company, id)}
        invalidate={licenseQueryKeys.ofCompany(company.id)}
        remove={{
          area: 'licenses',
          name: (license) => licenseName(t, license),
          call: (license) => remove.mutateAsync(license.id),
          failure: CHANGE_LICENSE_FAILURE,
        }}
      />
      {invalidating && (
        <ConfirmModal
          opened
          onClose={() => setInvalidating(null)}
          title={t('licenses.invalidateTitle')}
          onConfirm={() => invalidate.mutateAsync({ companyId: company.id, licenseId: invalidating.id })}
          success={t('licenses.invalidated', {
            name: truncateText(licenseName(t, invalidating), LIMITS.truncate.toastName),
          })}
          failure={CHANGE_LICENSE_FAILURE}
          itemName={licenseName(t, invalidating)}
          confirmLabel={t('licenses.invalidate')}
          danger
        >
          <Text>
            {t('licenses.invalidateQuestion', {
              name: truncateText(licenseName(t, invalidating), LIMITS.truncate.modalName),
            })}
          </Text>
        </ConfirmModal>
      )}
    </Stack>
  );
}
