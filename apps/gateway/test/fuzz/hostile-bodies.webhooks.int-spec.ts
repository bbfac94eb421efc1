import { describeHostileBodies, type FuzzRoute } from './hostile-bodies.fuzz';

/** The admin routes of webhook endpoints that take a body. */
describeHostileBodies('admin webhooks API', async ({ admin, harness }): Promise<FuzzRoute[]> => {
  // An endpoint to change, written as registration writes it (its URL is never called here).
  await harness.query(
    `insert into webhook_endpoints (id, url, events, secret_ciphertext, secret_key_version)
     values ('we_fuzzfuzzfuzzfuzzfuzzfu', 'http://127.0.0.1:9/hook', '{video.completed}', 'unused', 1)`,
  );
  return [
    { name: 'admin create webhook', method: 'POST', path: '/admin/webhooks', headers: admin },
    {
      name: 'admin PATCH webhook',
      method: 'PATCH',
      path: '/admin/webhooks/we_fuzzfuzzfuzzfuzzfuzzfu',
      headers: admin,
    },
  ];
});
