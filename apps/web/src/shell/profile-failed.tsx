import { Button, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface ProfileFailedProps {
  onRetry: () => void;
  onSignOut: () => void;
}

/** The token may still be good when the profile call fails for another reason (server down). */
export function ProfileFailed({ onRetry, onSignOut }: ProfileFailedProps) {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md">
      <Paper withBorder p="xl" radius="md" maw={460}>
        <Stack>
          <Title order={2} fz="lg">
            {t('shell.profileFailed')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('shell.profileFailedHint')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onSignOut}>
              {t('shell.signOut')}
            </Button>
            <Button onClick={onRetry}>{t('shell.retry')}</Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
