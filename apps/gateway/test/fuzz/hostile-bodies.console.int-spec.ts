import { signIn } from '../console-cookie.client';
import { describeHostileBodies, type FuzzRoute } from './hostile-bodies.fuzz';

/**
 * The console's routes: the sign-in (no credential but the body's token), and admin routes called as
 * the console calls them, with the session cookie from its own origin.
 */
describeHostileBodies(
  'console sign-in and the admin API with the session cookie',
  async ({ harness, adminTargets }): Promise<FuzzRoute[]> => {
    const { cookie } = await signIn(harness);
    if (!cookie) throw new Error('the console sign-in set no cookie');
    const console = { cookie, origin: harness.url, 'sec-fetch-site': 'same-origin' };
    const { accountId } = adminTargets;
    return [
      { name: 'console sign-in', method: 'POST', path: '/admin/session', headers: {} },
      {
        name: 'console sign-in from its page',
        method: 'POST',
        path: '/admin/session',
        headers: { origin: harness.url },
      },
      { name: 'console create account', method: 'POST', path: '/admin/accounts', headers: console },
      {
        name: 'console credit',
        method: 'POST',
        path: `/admin/accounts/${accountId}/credits`,
        headers: console,
      },
      {
        name: 'console debit',
        method: 'POST',
        path: `/admin/accounts/${accountId}/debits`,
        headers: console,
      },
      {
        name: 'console cancel task',
        method: 'POST',
        path: '/admin/tasks/vid_unknown/cancel',
        headers: console,
      },
    ];
  },
);
