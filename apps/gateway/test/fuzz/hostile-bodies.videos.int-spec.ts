import { describeHostileBodies, type FuzzRoute } from './hostile-bodies.fuzz';

/**
 * The theta asset actions that take a required field (the listings take none: every object is a
 * valid listing); without an asset channel or an asset, none may succeed.
 */
const THETA_ASSET_ACTIONS = [
  'CreateAssetGroup',
  'CreateAsset',
  'GetAsset',
  'UpdateAsset',
  'DeleteAssetGroup',
];

describeHostileBodies('video, character and theta routes', async ({ bearer }): Promise<FuzzRoute[]> => [
  { name: 'videos create', method: 'POST', path: '/v1/videos', headers: bearer },
  { name: 'unified video create', method: 'POST', path: '/v1/video/create', headers: bearer },
  { name: 'delta characters', method: 'POST', path: '/delta/v1/characters', headers: bearer },
  // The official SDK's newer video calls (multipart from the SDK; JSON on the wire too).
  ...['/v1/videos/extensions', '/v1/videos/edits', '/v1/videos/characters'].map((path): FuzzRoute => ({
    name: path,
    method: 'POST',
    path,
    headers: bearer,
  })),
  ...['/v1/video/generations', ...THETA_ASSET_ACTIONS.map((action) => `/v1/theta/asset/${action}`)].map(
    (path): FuzzRoute => ({ name: path, method: 'POST', path, headers: bearer }),
  ),
]);
