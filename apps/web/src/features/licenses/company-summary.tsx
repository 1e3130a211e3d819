import { Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Company } from '@opsdeck/contract/companies';
import { LIMITS } from '@opsdeck/contract/limits';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Truncate } from '../../components/truncate';
import { formatEpoch } from '../../lib/dates';
import { LicenseTypeBadge } from './license-display';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="dd" m={0}>
        {children}
      </Text>
    </div>
  );
}

/**
 * Spec section 2, Company page: the card of name, industry, head e-mail, the current licence's
 * badge (PRO warning, ENTERPRISE info) and its issue and expiry dates.
 */
export function CompanySummary({ company }: { company: Company }) {
  const { t } = useTranslation();
  const { license } = company;
  return (
    <Card component="section" withBorder radius="md" padding="lg" aria-label={t('licenses.summary')}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={1} fz={26}>
            <Truncate text={company.name} max={LIMITS.truncate.companyName} />
          </Title>
          {license ? (
            <LicenseTypeBadge type={license.type} />
          ) : (
            <Badge color="gray" variant="light">
              {t('licenses.noLicense')}
            </Badge>
          )}
        </Group>
        <SimpleGrid component="dl" cols={{ base: 1, xs: 2, md: 4 }} spacing="md" m={0}>
          <Fact label={t('licenses.industry')}>{company.industryType.name}</Fact>
          <Fact label={t('licenses.headEmail')}>{company.head?.emailAddress ?? company.emailAddress ?? '-'}</Fact>
          <Fact label={t('licenses.issueDate')}>{formatEpoch(license?.issueDate)}</Fact>
          <Fact label={t('licenses.expirationDate')}>{formatEpoch(license?.expirationDate)}</Fact>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
