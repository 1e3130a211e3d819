import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../lib/paths';

/** Spec section 2: an unauthorized page showing '401' and 'Unauthorized Access'. */
export function UnauthorizedPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" gap="sm" ta="center">
        <Text fz={96} fw={900} c="indigo.2" lh={1}>
          {t('unauthorized.code')}
        </Text>
        <Title order={1} fz={28}>
          {t('unauthorized.title')}
        </Title>
        <Text c="dimmed" maw={420}>
          {t('unauthorized.body')}
        </Text>
        <Button component={Link} to={PATHS.login.pattern} mt="md">
          {t('unauthorized.login')}
        </Button>
      </Stack>
    </Center>
  );
}
