import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ListDefaults } from '../../components/data-table/list-params';
import { useListParams } from '../../components/data-table/use-list-params';
import { ListPageHeader } from '../../components/list-page-header';
import { isAdmin } from '../../lib/authorities';
import { useViewer } from '../../lib/profile-context';
import { WebhookEndpoints } from './webhook-endpoints';

const LIST: ListDefaults = { sort: { key: 'createdAt', direction: 'desc' } };

/**
 * Webhooks (docs/webhooks.md), under User Management for holders of MANAGE_WEBHOOKS: a company's
 * endpoints for its staff; for the provider its own endpoints, told of every company's events (a
 * company's own are on that company's page).
 */
export function WebhooksPage() {
  const { t } = useTranslation();
  const params = useListParams(LIST);
  const provider = isAdmin(useViewer());
  return (
    <Stack gap="lg">
      <WebhookEndpoints
        tenant={undefined}
        search={params.search}
        table={params.table}
        header={(create) => (
          <>
            <ListPageHeader
              title={t('webhooks.title')}
              searchPlaceholder={t('webhooks.searchPlaceholder')}
              list={params}
              create={{ label: t('webhooks.create'), onClick: create }}
            />
            <Text c="dimmed" size="sm">
              {t(provider ? 'webhooks.introProvider' : 'webhooks.intro')}
            </Text>
          </>
        )}
      />
    </Stack>
  );
}
