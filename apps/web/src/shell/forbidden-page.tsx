import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useProfile } from '../features/auth/profile-context';
import { toViewer } from '../lib/authorities';
import { PATHS } from '../lib/paths';
import { dashboardDefault } from './routing-rules';

export function ForbiddenPage() {
  const { t } = useTranslation();
  const viewer = toViewer(useProfile());
  // A link to the dashboard only helps when the dashboard leads somewhere else than here.
  const hasHome = dashboardDefault(viewer) !== PATHS.forbidden.pattern;
  return (
    <Stack align="center" gap="sm" py={80} ta="center">
      <Text fz={72} fw={900} c="gray.4" lh={1}>
        {t('forbidden.code')}
      </Text>
      <Title order={1} fz={26}>
        {t('forbidden.title')}
      </Title>
      <Text c="dimmed" maw={440}>
        {t('forbidden.body')}
      </Text>
      {hasHome && (
        <Button component={Link} to={PATHS.dashboard.pattern} variant="light" mt="md">
          {t('forbidden.home')}
        </Button>
      )}
    </Stack>
  );
}
