import { Center, Loader, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { holds, holdsAny, isAdmin } from '../../lib/authorities';
import { useCrumbName } from '../../lib/breadcrumb-trail';
import { notifyError } from '../../lib/notify';
import { PATHS } from '../../lib/paths';
import { useViewer } from '../../lib/profile-context';
import { companyQueryOptions } from '../../resources/companies';
import { CompanyAlertRules } from '../alerts/company-alert-rules';
import { CompanyWebhooks } from '../webhooks/company-webhooks';
import { CompanySummary } from './company-summary';
import { LicensesTable } from './licenses-table';

/**
 * Spec section 2, Company page (/dashboard/license/companies/{companyId}): the company's card and
 * its licences, and for the provider its webhook endpoints and alert rules. A company that cannot be read
 * (ERROR_COMPANY_NOT_EXIST, or another company's for a company user) toasts its error and goes
 * back to where the user can look for it: the companies list, or for a company user (who may not
 * open that list) their own company's page, which they also reach from the sidebar's 'Licenses';
 * never to a page that answers 403 under the toast.
 */
export function CompanyPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // A companyId that is no number is answered ERROR_COMPANY_NOT_EXIST by the server, like a missing one.
  const companyId = Number(useParams().companyId);
  const company = useQuery({ ...companyQueryOptions(companyId), retry: false });
  const viewer = useViewer();
  useCrumbName(pathname, company.data?.name);

  useEffect(() => {
    if (!company.isError) return;
    notifyError(company.error);
    const back = holdsAny(viewer, PATHS.companies.authorities)
      ? PATHS.companies.build()
      : viewer.companyId !== null && viewer.companyId !== companyId
        ? PATHS.company.build({ companyId: viewer.companyId })
        : PATHS.dashboard.build();
    void navigate(back, { replace: true });
  }, [company.isError, company.error, navigate, viewer, companyId]);

  if (!company.data) {
    return (
      <Center py="xl">
        <Loader aria-label={t('shell.loading')} />
      </Center>
    );
  }
  return (
    <Stack gap="lg">
      <CompanySummary company={company.data} />
      <LicensesTable company={company.data} />
      {/* The provider manages a company's webhook endpoints here (a company's staff on their webhooks page). */}
      {isAdmin(viewer) && holds(viewer, 'MANAGE_WEBHOOKS') && <CompanyWebhooks company={company.data} />}
      {/* And its alert rules (a company's staff on their alerts page). */}
      {isAdmin(viewer) && holds(viewer, 'MANAGE_ALERTS') && <CompanyAlertRules company={company.data} />}
    </Stack>
  );
}
