import { Group, Stack, Title } from '@mantine/core';
import type { Company } from '@opsdeck/contract/companies';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FloatingCreateButton } from '../../components/floating-create-button';
import { AlertRules } from './alert-rules';

/** A company's alert rules on its company page, for the provider: its calls carry the company's tenant. */
export function CompanyAlertRules({ company }: { company: Pick<Company, 'tenantId'> }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <AlertRules
        tenant={company.tenantId}
        header={(create) => (
          <Group justify="space-between" align="center">
            <Title order={2} fz={20} id={titleId}>
              {t('alerts.title')}
            </Title>
            <FloatingCreateButton label={t('alerts.create')} onClick={create} />
          </Group>
        )}
      />
    </Stack>
  );
}
