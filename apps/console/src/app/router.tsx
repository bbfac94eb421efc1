import type { JSX } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { AccountsPage } from '../pages/accounts.page';
import { AuditPage } from '../pages/audit.page';
import { ChannelsPage } from '../pages/channels.page';
import { KeysPage } from '../pages/keys.page';
import { LogsPage } from '../pages/logs.page';
import { OverviewPage } from '../pages/overview.page';
import { PricesPage } from '../pages/prices.page';
import { TasksPage } from '../pages/tasks.page';
import { WebhooksPage } from '../pages/webhooks.page';
import { ConsoleLayout } from './console-layout';
import { NAVIGATION } from './navigation';

const PAGE_ELEMENTS: Record<(typeof NAVIGATION)[number]['path'], JSX.Element> = {
  overview: <OverviewPage />,
  channels: <ChannelsPage />,
  keys: <KeysPage />,
  accounts: <AccountsPage />,
  prices: <PricesPage />,
  logs: <LogsPage />,
  tasks: <TasksPage />,
  webhooks: <WebhooksPage />,
  audit: <AuditPage />,
};

/** Served under /console by the gateway, which answers index.html for every path below it. */
export function createConsoleRouter() {
  return createBrowserRouter(
    [
      {
        path: '/',
        element: <ConsoleLayout />,
        children: [
          { index: true, element: <Navigate to="/overview" replace /> },
          ...NAVIGATION.map(({ path }) => ({ path, element: PAGE_ELEMENTS[path] })),
          { path: '*', element: <Navigate to="/overview" replace /> },
        ],
      },
    ],
    { basename: '/console' },
  );
}
