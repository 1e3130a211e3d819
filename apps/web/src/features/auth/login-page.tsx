import { Box, Center, Loader, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { BrandMark } from '../../components/brand-mark';
import { LoginForm } from './login-form';
import { LOGIN_VIEWS, RESET_KEY_PARAM } from './login-views';
import { PanelFrame } from './panel-frame';

const ForgotPanel = lazy(async () => ({ default: (await import('./recovery-panels')).ForgotPanel }));
const ResetPanel = lazy(async () => ({ default: (await import('./recovery-panels')).ResetPanel }));

function LoginPanel() {
  const { t } = useTranslation();
  return (
    <PanelFrame title={t('auth.login.title')} back={false}>
      <LoginForm />
    </PanelFrame>
  );
}

/**
 * Spec section 2, login panel: login, forgot password, e-mail sent, reset password, password
 * changed. The reset link's key is taken out of the address bar at once, so that it stays out of
 * the history, bookmarks and anything the page later sends as a referrer.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const linkKey = params.get(RESET_KEY_PARAM);
  const [resetPasswordKey, setResetPasswordKey] = useState<string | null>(linkKey);

  useEffect(() => {
    if (linkKey === null) return;
    setResetPasswordKey(linkKey);
    // The same view under a cleaner address: the panel keeps its key, so nothing typed meanwhile is lost.
    navigate(LOGIN_VIEWS.reset, { replace: true, state: { panelKey: location.key } });
  }, [linkKey, navigate, location.key]);
  const panelKey = (location.state as { panelKey?: string } | null)?.panelKey ?? location.key;

  const view = linkKey !== null ? 'reset' : params.get('view');
  let panel: ReactNode;
  if (view === 'forgot') panel = <ForgotPanel />;
  else if (view === 'reset')
    panel = <ResetPanel resetPasswordKey={resetPasswordKey} onUsed={() => setResetPasswordKey(null)} />;
  else panel = <LoginPanel />;
  const loading = (
    <Center py="xl">
      <Loader size="sm" aria-label={t('shell.loading')} />
    </Center>
  );

  return (
    <Center
      mih="100dvh"
      p="md"
      style={{
        background:
          'radial-gradient(circle at 15% 20%, var(--mantine-color-indigo-1), transparent 45%), radial-gradient(circle at 85% 80%, var(--mantine-color-cyan-1), transparent 40%), var(--mantine-color-gray-0)',
      }}
    >
      <Paper component="main" withBorder shadow="xl" radius="lg" w="100%" maw={920} style={{ overflow: 'hidden' }}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={0}>
          <Box
            p={{ base: 'xl', sm: 48 }}
            c="white"
            style={{
              background:
                'linear-gradient(145deg, var(--mantine-color-indigo-8) 0%, var(--mantine-color-indigo-6) 55%, var(--mantine-color-cyan-6) 100%)',
            }}
          >
            <Stack justify="space-between" h="100%" gap="xl">
              <BrandMark inverted size="lg" asHeading />
              <Stack gap="sm">
                <Text fz={{ base: 24, sm: 30 }} fw={700} lh={1.2}>
                  {t('app.strapline')}
                </Text>
                <Text c="indigo.1" size="sm">
                  {t('app.tagline')}
                </Text>
              </Stack>
              <Text c="indigo.2" size="xs">
                © Opsdeck
              </Text>
            </Stack>
          </Box>
          <Box p={{ base: 'xl', sm: 48 }}>
            {/* A new key per navigation starts each view fresh: 'Back to Login' forgets a sent or changed state. */}
            <Box key={panelKey}>
              <Suspense fallback={loading}>{panel}</Suspense>
            </Box>
          </Box>
        </SimpleGrid>
      </Paper>
    </Center>
  );
}
