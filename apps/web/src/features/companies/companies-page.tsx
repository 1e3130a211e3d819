import { Anchor } from '@mantine/core';
import { COMPANY_SORT_FIELDS, type Company, type CompanySortField } from '@opsdeck/contract/companies';
import { LIMITS } from '@opsdeck/contract/limits';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AreaListPage } from '../../components/area-list-page';
import type { Column } from '../../components/data-table/data-table';
import type { ListDefaults } from '../../components/data-table/list-params';
import type { SortState } from '../../components/data-table/table-state';
import { useListParams } from '../../components/data-table/use-list-params';
import { areaActionsColumn } from '../../components/row-actions';
import { useRowDialogs } from '../../components/row-dialogs';
import { Truncate } from '../../components/truncate';
import { holds } from '../../lib/authorities';
import { PATHS } from '../../lib/paths';
import { useViewer } from '../../lib/profile-context';
import { companiesPageQueryOptions, companyKeys, companyQueryOptions } from '../../resources/companies';
import { listQuery } from '../../resources/rest-resource';
import { DELETE_COMPANY_FAILURE, useDeleteCompany } from './api';
import { CompanyFormModal } from './company-form';

const DEFAULT_SORT: SortState = { key: 'name', direction: 'asc' };
const LIST: ListDefaults = { sort: DEFAULT_SORT, sortKeys: COMPANY_SORT_FIELDS };

/**
 * Spec section 2, Companies: name (a link to the company's licences, cut at 50 with a tooltip),
 * head and industry, 10 a page that the server pages, sorts and searches (name, head's first or
 * last name, industry); create, edit and delete by authority.
 */
export function CompaniesPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const params = useListParams(LIST);
  const dialogs = useRowDialogs<Company>();
  const remove = useDeleteCompany();
  const sort = params.sort ?? DEFAULT_SORT;
  const filter = { sort: { field: sort.key as CompanySortField, direction: sort.direction }, search: params.search };
  const list = useQuery(companiesPageQueryOptions({ page: params.page, ...filter }));
  // The link only for those the company page will let in (ACCESS_COMPANY_LICENSE_PAGE).
  const linksToCompany = holds(viewer, 'ACCESS_COMPANY_LICENSE_PAGE');

  const columns: Column<Company>[] = [
    {
      key: 'name',
      header: t('companies.name'),
      value: (row) => row.name,
      render: (row) => {
        const name = <Truncate text={row.name} max={LIMITS.truncate.companyName} />;
        return linksToCompany ? (
          <Anchor component={Link} to={PATHS.company.build({ companyId: row.id })} fw={500}>
            {name}
          </Anchor>
        ) : (
          name
        );
      },
      sortable: true,
    },
    { key: 'head', header: t('companies.head'), value: (row) => row.head?.completeName, sortable: true, priority: 2 },
    {
      key: 'industry',
      header: t('companies.industry'),
      value: (row) => row.industryType.name,
      sortable: true,
      priority: 2,
    },
    ...areaActionsColumn(t, {
      area: 'companies',
      name: (row: Company) => row.name,
      onEdit: holds(viewer, 'EDIT_COMPANY') ? dialogs.edit : undefined,
      onDelete: holds(viewer, 'DELETE_COMPANY') ? dialogs.remove : undefined,
    }),
  ];

  return (
    <AreaListPage
      area="companies"
      list={params}
      columns={columns}
      rows={list.data?.items ?? []}
      total={list.data?.total ?? 0}
      loading={list.isLoading || list.isPlaceholderData}
      canCreate={holds(viewer, 'CREATE_COMPANY')}
      csv={{ path: '/company', query: listQuery(filter), fallbackName: 'companies.csv' }}
      dialogs={dialogs}
      form={(company, onClose) => <CompanyFormModal company={company} onClose={onClose} />}
      load={companyQueryOptions}
      invalidate={companyKeys.all}
      remove={{
        area: 'companies',
        name: (company) => company.name,
        // Spec section 7: the delete carries the tenant header of the company it removes.
        call: (company) => remove.mutateAsync({ id: company.id, tenant: company.tenantId }),
        failure: DELETE_COMPANY_FAILURE,
      }}
    />
  );
}
