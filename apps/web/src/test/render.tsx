import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { installSessionHandling } from '../features/auth/session';
import { i18n } from '../lib/i18n';
import { createQueryClient } from '../lib/query-client';
import { cssVariablesResolver, theme } from '../lib/theme';
import { routes } from '../shell/routes';

function Providers({
  children,
  queryClient,
}: {
  children: ReactNode;
  queryClient: ReturnType<typeof createQueryClient>;
}) {
  return (
    <I18nextProvider i18n={i18n}>
      {/* env="test" turns off transitions and portals, which happy-dom would otherwise leave half-open. */}
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env="test">
        <Notifications />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  );
}

/** Renders a component with the app's providers, inside a router at `path`. */
export function renderWithProviders(ui: ReactNode, { path = '/' }: { path?: string } = {}) {
  const queryClient = createQueryClient();
  return {
    queryClient,
    ...render(
      <Providers queryClient={queryClient}>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </Providers>,
    ),
  };
}

/** Renders the whole console (guard, lazy routes, shell) at `path`, as main.tsx does. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const uninstall = installSessionHandling(queryClient);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  const unmount = () => {
    view.unmount();
    uninstall();
  };
  return { ...view, unmount, router, queryClient };
}
