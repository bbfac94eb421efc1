/** The navigation's entries; router.tsx maps the same paths to their pages. */
export const NAVIGATION = [
  { path: 'overview', title: 'Overview' },
  { path: 'channels', title: 'Channels' },
  { path: 'keys', title: 'Keys' },
  { path: 'accounts', title: 'Accounts' },
  { path: 'prices', title: 'Prices' },
  { path: 'logs', title: 'Logs' },
  { path: 'tasks', title: 'Tasks' },
  { path: 'webhooks', title: 'Webhooks' },
  { path: 'audit', title: 'Audit' },
] as const;
