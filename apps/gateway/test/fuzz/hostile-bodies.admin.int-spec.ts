import { describeHostileBodies, type FuzzRoute } from './hostile-bodies.fuzz';

/** Every admin route that takes a body; a new one joins this list. */
describeHostileBodies('admin API', async ({ admin, adminTargets }): Promise<FuzzRoute[]> => {
  const { accountId, keyId, channelId } = adminTargets;
  return [
    { name: 'admin create channel', method: 'POST', path: '/admin/channels', headers: admin },
    { name: 'admin PATCH channel', method: 'PATCH', path: `/admin/channels/${channelId}`, headers: admin },
    { name: 'admin create key', method: 'POST', path: '/admin/keys', headers: admin },
    { name: 'admin PATCH key', method: 'PATCH', path: `/admin/keys/${keyId}`, headers: admin },
    { name: 'admin create account', method: 'POST', path: '/admin/accounts', headers: admin },
    { name: 'admin PATCH account', method: 'PATCH', path: `/admin/accounts/${accountId}`, headers: admin },
    { name: 'admin credit', method: 'POST', path: `/admin/accounts/${accountId}/credits`, headers: admin },
    { name: 'admin prices', method: 'PUT', path: '/admin/prices', headers: admin },
  ];
});
