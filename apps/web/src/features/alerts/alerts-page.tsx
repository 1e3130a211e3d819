import { Anchor, Card, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { ListPageHeader } from '../../components/list-page-header';
import { holds, isAdmin } from '../../lib/authorities';
import { PATHS } from '../../lib/paths';
import { useViewer } from '../../lib/profile-context';
import { AlertRules } from './alert-rules';

const LIST: ListDefaults = { sort: { key: 'kind', direction: 'asc' } };

/**
 * Alert rules (docs/alerts.md), under User Management for holders of MANAGE_ALERTS: a company's
 * rules for its staff. Rules are a company's: the provider manages one company's on its company
 * page, and is sent there from here.
 */
export function AlertsPage() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const params = useListParams(LIST);
  if (isAdmin(viewer)) {
    return (
      <Stack gap="lg">
        <Title order={1} fz={26}>
          {t('alerts.title')}
        </Title>
        <Card withBorder radius="md" padding="md">
          <Text size="sm">
            {t('alerts.providerIntro')}{' '}
            {holds(viewer, 'ACCESS_COMPANY_TAB') && (
              <Anchor component={Link} to={PATHS.companies.build()} size="sm">
                {t('alerts.toCompanies')}
              </Anchor>
            )}
          </Text>
        </Card>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <AlertRules
        tenant={undefined}
        search={params.search}
        table={params.table}
        header={(create) => (
          <>
            <ListPageHeader
              title={t('alerts.title')}
              searchPlaceholder={t('alerts.searchPlaceholder')}
              list={params}
              create={{ label: t('alerts.create'), onClick: create }}
            />
            <Text c="dimmed" size="sm">
              {t('alerts.intro')}
            </Text>
          </>
        )}
      />
    </Stack>
  );
}
