import { describeHostileBodies, type FuzzRoute } from './hostile-bodies.fuzz';

describeHostileBodies('alpha, gamma and lambda routes', async ({ bearer }): Promise<FuzzRoute[]> => [
  ...['text2video', 'img2video', 'start-end2video', 'reference2video'].map((endpoint): FuzzRoute => ({
    name: `alpha ${endpoint}`,
    method: 'POST',
    path: `/alpha/ent/v2/${endpoint}`,
    headers: bearer,
  })),
  // No gamma channel: a body the gamma routes accept ends in model_not_found, holding nothing.
  ...['text2video', 'image2video', 'omni-video'].map((endpoint): FuzzRoute => ({
    name: `gamma ${endpoint}`,
    method: 'POST',
    path: `/gamma/v1/videos/${endpoint}`,
    headers: bearer,
  })),
  // No lambda channel: a body the submit routes accept ends in model_not_found, holding nothing.
  ...['music', 'LYRICS'].map((action): FuzzRoute => ({
    name: `lambda submit ${action}`,
    method: 'POST',
    path: `/lambda/submit/${action}`,
    headers: bearer,
  })),
  { name: 'lambda fetch', method: 'POST', path: '/lambda/fetch', headers: bearer },
]);
