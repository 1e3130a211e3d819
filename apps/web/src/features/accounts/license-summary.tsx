import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Company } from '@opsdeck/contract/companies';
import type { License } from '@opsdeck/contract/licenses';
import { LIMITS } from '@opsdeck/contract/limits';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Truncate } from '../../components/truncate';
import { DATE_FORMATS, formatEpoch } from '../../lib/dates';
import { LicenseStateBadge, LicenseTypeBadge } from '../licenses/license-display';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/** Spec section 2, Licence keys page: the company and the licence the keys belong to. */
export function LicenseSummary({ license, company }: { license: License; company?: Company }) {
  const { t } = useTranslation();
  const companyName = company?.name ?? license.company?.name ?? '';
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-label={t('accounts.keys.summary')}>
      <Stack gap="md">
        <Group gap="sm" wrap="wrap">
          <Title order={2} fz={20}>
            <Truncate text={companyName} max={LIMITS.truncate.companyName} />
          </Title>
          <LicenseTypeBadge type={license.type} />
          <LicenseStateBadge invalidated={license.invalidated} expired={license.expired} />
        </Group>
        <SimpleGrid cols={{ base: 2, sm: 3, md: 6 }} spacing="md">
          <Fact label={t('accounts.keys.label')}>{license.label || '-'}</Fact>
          <Fact label={t('accounts.keys.industry')}>{company?.industryType.name ?? '-'}</Fact>
          <Fact label={t('accounts.keys.issueDate')}>{formatEpoch(license.issueDate, DATE_FORMATS.longDateTime)}</Fact>
          <Fact label={t('accounts.keys.expirationDate')}>
            {formatEpoch(license.expirationDate, DATE_FORMATS.longDateTime)}
          </Fact>
          <Fact label={t('accounts.keys.allowedKeys')}>{license.maxAccounts}</Fact>
          <Fact label={t('accounts.keys.remainingKeys')}>{license.unusedAccounts}</Fact>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
