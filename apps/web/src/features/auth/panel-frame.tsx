import { Anchor, Center, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LOGIN_VIEWS } from './login-views';

/** 'Back to Login', under every panel but the login form's own. */
function BackToLogin() {
  const { t } = useTranslation();
  return (
    <Anchor component={Link} to={LOGIN_VIEWS.login} size="sm">
      <Group gap={6} component="span" wrap="nowrap">
        <IconArrowLeft size={16} aria-hidden="true" />
        {t('auth.backToLogin')}
      </Group>
    </Anchor>
  );
}

/** A login panel's title and content, with the way back to the login form unless it is that form. */
export function PanelFrame({ title, children, back = true }: { title: string; children: ReactNode; back?: boolean }) {
  return (
    <Stack gap="lg">
      <Title order={2} fz={24}>
        {title}
      </Title>
      {children}
      {back && (
        <Center>
          <BackToLogin />
        </Center>
      )}
    </Stack>
  );
}
