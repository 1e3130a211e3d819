import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { installSessionHandling } from './features/auth/session';
import { i18n } from './lib/i18n';
import { createQueryClient } from './lib/query-client';
import { syncSessionAcrossTabs } from './lib/session';
import { cssVariablesResolver, theme } from './lib/theme';
import { routes } from './shell/routes';
import { Toasts } from './shell/toasts';

const queryClient = createQueryClient();
installSessionHandling(queryClient);
syncSessionAcrossTabs();
const router = createBrowserRouter(routes);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <Toasts />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </I18nextProvider>
  </StrictMode>,
);
