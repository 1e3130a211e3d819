import { Alert, Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../lib/api-client';
import { errorText } from '../../lib/i18n';

interface ReportPanelProps {
  title: string;
  /** The page with everything behind the panel; left out when the viewer may not open it. */
  viewAll?: string;
  testId: string;
  children: ReactNode;
}

/** One of the agent report's panels (spec section 2): a titled card with its 'View All' link. */
export function ReportPanel({ title, viewAll, testId, children }: ReportPanelProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={titleId} data-testid={testId}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="center" wrap="nowrap">
          <Title order={2} fz="lg" id={titleId}>
            {title}
          </Title>
          {viewAll && (
            <Anchor
              component={Link}
              to={viewAll}
              size="sm"
              fw={500}
              aria-label={t('reports.agent.viewAllOf', { panel: title })}
            >
              {t('reports.agent.viewAll')}
            </Anchor>
          )}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/**
 * A query's data once it is there; a loader before, and the error's text with a retry after a
 * failure (spec section 8 leaves load failures mostly silent: here the report says which part is
 * missing rather than showing zeros that are not true).
 */
export function QueryContent<T>({
  query,
  children,
}: {
  query: Pick<UseQueryResult<T>, 'data' | 'isError' | 'error' | 'refetch'>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.data !== undefined) return children(query.data);
  if (query.isError) {
    return (
      <Alert color="red" title={t('reports.agent.loadFailed')}>
        <Stack gap="xs" align="flex-start">
          {errorText(isApiError(query.error) ? query.error.errorKey : 'ERROR_GENERAL_INTERNAL')}
          <Button size="compact-sm" variant="light" color="red" onClick={() => void query.refetch()}>
            {t('reports.agent.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <Group gap="xs">
      <Loader size="xs" aria-hidden="true" />
      <Text size="sm" c="dimmed">
        {t('table.loading')}
      </Text>
    </Group>
  );
}
