import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useRouteError } from 'react-router';

/**
 * Shown when a route throws, most often a page chunk that no longer exists after a new release was
 * deployed: a reload fetches the current one. Texts are literal here because i18n may be what failed.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" ta="center" gap="sm">
        <Title order={1} fz={24}>
          Something went wrong
        </Title>
        <Text c="dimmed">Oops! Something went wrong in processing your request.</Text>
        <Button onClick={() => window.location.reload()} mt="md">
          Reload
        </Button>
      </Stack>
    </Center>
  );
}
