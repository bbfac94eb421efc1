import { describeHostileBodies, type FuzzRoute } from './hostile-bodies.fuzz';

describeHostileBodies('image and /bt routes', async ({ bearer }): Promise<FuzzRoute[]> => [
  { name: 'image generations', method: 'POST', path: '/v1/images/generations', headers: bearer },
  // The same body read and admitted as an image job (a valid one answers 202 with its task).
  {
    name: 'image generations (respond-async)',
    method: 'POST',
    path: '/v1/images/generations',
    headers: { ...bearer, prefer: 'respond-async' },
  },
  // Multipart only: a JSON body is refused; a form whose text parts are not UTF-8 too.
  { name: 'image edits', method: 'POST', path: '/v1/images/edits', headers: bearer },
  {
    name: 'image edits (respond-async)',
    method: 'POST',
    path: '/v1/images/edits',
    headers: { ...bearer, prefer: 'respond-async' },
  },
  {
    name: 'bt submit',
    method: 'POST',
    path: '/bt?Action=CVSync2AsyncSubmitTask&Version=2022-08-31',
    headers: bearer,
  },
  {
    name: 'bt get result',
    method: 'POST',
    path: '/bt?Action=CVSync2AsyncGetResult&Version=2022-08-31',
    headers: bearer,
  },
]);
