import { Alert, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Account, GeneratedAccount } from '@opsdeck/contract/accounts';
import type { License } from '@opsdeck/contract/licenses';
import { IconFileUpload, IconKey } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ConfirmModal } from '../../components/confirm-modal';
import { type Column, DataTable } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { DeleteModal } from '../../components/delete-modal';
import { FloatingCreateMenu } from '../../components/floating-create-button';
import { canViewHistory } from '../../components/history-link';
import { actionsColumn } from '../../components/row-actions';
import { type ApiError, isApiError } from '../../lib/api-client';
import { holds } from '../../lib/authorities';
import { useCrumbName } from '../../lib/breadcrumb-trail';
import { notifyError } from '../../lib/notify';
import { PATHS } from '../../lib/paths';
import { useViewer } from '../../lib/profile-context';
import { licenseAccountsQueryOptions } from '../../resources/accounts';
import { companyQueryOptions } from '../../resources/companies';
import { companyLicenseQueryOptions } from '../../resources/licenses';
import { LicenseStateBadge } from '../licenses/license-display';
import { exportLicenseFile, KEY_CHANGE_FAILURE, type KeyScope, useDeleteKey, useInvalidateKey } from './api';
import { GenerateKeyModal } from './generate-key-form';
import { GeneratedKeyModal } from './generated-key-modal';
import { KeyActions } from './key-actions';
import { LicenseSummary } from './license-summary';
import { MacAddresses } from './mac-addresses';

const LIST: ListDefaults = { sort: null };

type Dialog =
  | { kind: 'generate' | 'fromFile' }
  | { kind: 'invalidate'; row: Account }
  | { kind: 'delete'; row: Account }
  | null;

/** Why no key can be made on the licence now, or nothing when one can. */
function generationBlocked(license: License): string | undefined {
  if (license.invalidated) return 'accounts.keys.blockedInvalidated';
  if (license.expired) return 'accounts.keys.blockedExpired';
  if (license.unusedAccounts <= 0) return 'accounts.keys.blockedFull';
  return undefined;
}

/** A refusal of the server (4xx) rather than a failure to answer; a 401 ends the session instead. */
function refused(error: unknown): error is ApiError {
  return isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 401;
}

/**
 * Spec section 2, Licence keys page: the company and licence summary, the licence's keys (10 a
 * page, sorted in the browser: a licence holds at most 100), each one's invalidate, export and
 * delete, and a floating menu to generate a key, alone or from a registration file. A licence
 * that does not exist toasts and goes back to its company's page.
 */
export function LicenseKeysPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const params = useParams();
  const companyId = Number(params.companyId);
  const licenseId = Number(params.licenseId);
  const list = useListParams(LIST);

  // The company first: its tenant is the one the licence and its keys are read and changed in.
  const company = useQuery(companyQueryOptions(companyId));
  const tenant = company.data?.tenantId;
  const license = useQuery({
    ...companyLicenseQueryOptions({ id: companyId, tenantId: tenant ?? '' }, licenseId),
    enabled: tenant !== undefined,
  });
  const keys = useQuery({
    ...licenseAccountsQueryOptions(companyId, licenseId, tenant),
    enabled: license.isSuccess,
  });
  const scope: KeyScope | null = tenant === undefined ? null : { company: companyId, license: licenseId, tenant };

  const [dialog, setDialog] = useState<Dialog>(null);
  const [generated, setGenerated] = useState<GeneratedAccount | null>(null);
  const [exporting, setExporting] = useState<number | null>(null);
  const invalidate = useInvalidateKey();
  const remove = useDeleteKey();

  useCrumbName(PATHS.company.build({ companyId }), company.data?.name);
  useCrumbName(pathname, license.data ? license.data.label || license.data.type.name : undefined);

  // Spec sections 2 and 8: a licence that is not there (or not this company's) toasts and goes back
  // to the company's page; a company that is not there, to the companies.
  const failure = company.error ?? license.error;
  useEffect(() => {
    if (!refused(failure)) return;
    notifyError(failure);
    const back =
      failure.key === 'ERROR_COMPANY_NOT_EXIST' ? PATHS.companies.build() : PATHS.company.build({ companyId });
    navigate(back, { replace: true });
  }, [failure, companyId, navigate]);

  const canGenerate = holds(viewer, 'GENERATE_LICENSE_KEY');
  const canDelete = holds(viewer, 'DELETE_LICENSE_KEY');
  const canInvalidate = canDelete || canGenerate;
  const canExport = holds(viewer, 'EXPORT_LICENSE_FILE');

  const exportFile = async (row: Account) => {
    setExporting(row.id);
    try {
      await exportLicenseFile(row, tenant);
    } catch (error) {
      notifyError(error, row.partialKey);
    } finally {
      setExporting(null);
    }
  };

  const columns: Column<Account>[] = [
    {
      key: 'partialKey',
      header: t('accounts.keys.partialKey'),
      value: (row) => row.partialKey,
      render: (row) => (
        <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
          {row.partialKey}
        </Text>
      ),
      sortable: true,
    },
    {
      key: 'department',
      header: t('accounts.keys.department'),
      value: (row) => row.departmentName,
      sortable: true,
      priority: 2,
    },
    { key: 'fullName', header: t('accounts.fullName'), value: (row) => row.fullName, sortable: true },
    {
      key: 'macAddresses',
      header: t('accounts.macAddresses'),
      render: (row) => <MacAddresses addresses={row.macAddresses} />,
      priority: 3,
    },
    { key: 'email', header: t('accounts.email'), value: (row) => row.emailAddress, sortable: true, priority: 2 },
    {
      key: 'status',
      header: t('accounts.status'),
      value: (row) => (row.invalidated ? 1 : 0),
      render: (row) => <LicenseStateBadge invalidated={row.invalidated} />,
      sortable: true,
      priority: 3,
    },
    ...(canInvalidate || canDelete || canExport || canViewHistory(viewer)
      ? [
          actionsColumn(t('accounts.actions'), (row: Account) => (
            <KeyActions
              name={row.partialKey}
              historyId={row.id}
              onExport={
                canExport && row.hasFile && !row.invalidated && !license.data?.invalidated
                  ? () => void exportFile(row)
                  : undefined
              }
              exporting={exporting === row.id}
              onInvalidate={
                canInvalidate && !row.invalidated ? () => setDialog({ kind: 'invalidate', row }) : undefined
              }
              onDelete={canDelete ? () => setDialog({ kind: 'delete', row }) : undefined}
            />
          )),
        ]
      : []),
  ];

  const blocked = license.data ? generationBlocked(license.data) : 'accounts.keys.blockedLoading';

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="md">
        <Title order={1} fz={26}>
          {t('accounts.keys.title')}
        </Title>
        {canGenerate && (
          <FloatingCreateMenu
            label={t('accounts.keys.create')}
            disabledReason={blocked && t(blocked)}
            items={[
              {
                label: t('accounts.keys.generate'),
                icon: <IconKey size={16} aria-hidden="true" />,
                onClick: () => setDialog({ kind: 'generate' }),
              },
              {
                label: t('accounts.keys.generateFromFile'),
                icon: <IconFileUpload size={16} aria-hidden="true" />,
                onClick: () => setDialog({ kind: 'fromFile' }),
              },
            ]}
          />
        )}
      </Group>
      {license.data && <LicenseSummary license={license.data} company={company.data} />}
      {failure && !refused(failure) && (
        <Alert color="red" variant="light" role="alert">
          {t('accounts.keys.loadFailed')}
        </Alert>
      )}
      <Card withBorder radius="md" padding="md">
        <DataTable
          {...list.table}
          columns={columns}
          rows={keys.data ?? []}
          rowKey={(row) => row.id}
          label={t('accounts.keys.tableLabel')}
          emptyText={t('accounts.keys.empty')}
          loading={company.isLoading || license.isLoading || keys.isLoading}
        />
      </Card>

      {scope && (dialog?.kind === 'generate' || dialog?.kind === 'fromFile') && (
        <GenerateKeyModal
          withFile={dialog.kind === 'fromFile'}
          scope={scope}
          onClose={(account) => {
            setDialog(null);
            if (account) setGenerated(account);
          }}
        />
      )}
      {generated && <GeneratedKeyModal account={generated} onClose={() => setGenerated(null)} />}
      {scope && dialog?.kind === 'invalidate' && (
        <ConfirmModal
          opened
          onClose={() => setDialog(null)}
          title={t('accounts.keys.invalidateTitle')}
          onConfirm={() => invalidate.mutateAsync({ scope, account: dialog.row.id })}
          success={t('accounts.keys.invalidatedToast', { name: dialog.row.partialKey })}
          failure={KEY_CHANGE_FAILURE}
          itemName={dialog.row.partialKey}
          confirmLabel={t('accounts.keys.invalidate')}
          danger
        >
          <Text>{t('accounts.keys.invalidateQuestion', { name: dialog.row.partialKey })}</Text>
        </ConfirmModal>
      )}
      {scope && dialog?.kind === 'delete' && (
        <DeleteModal
          area="accounts.keys"
          name={dialog.row.partialKey}
          remove={() => remove.mutateAsync({ scope, account: dialog.row.id })}
          failure={KEY_CHANGE_FAILURE}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
