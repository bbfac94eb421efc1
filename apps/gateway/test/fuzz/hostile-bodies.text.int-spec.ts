import { loadHostileBodies } from './hostile-bodies.corpus';
import { describeHostileBodies, type FuzzRoute } from './hostile-bodies.fuzz';

describe('the hostile body corpus', () => {
  it('keeps at least 150 hostile bodies of every kind the issue names', () => {
    const bodies = loadHostileBodies(1024);
    expect(bodies.length).toBeGreaterThanOrEqual(150);
    expect(new Set(bodies.map((body) => body.category))).toEqual(
      new Set([
        'truncated',
        'malformed',
        'top-level',
        'deep',
        'numbers',
        'wrong-type',
        'prototype-key',
        'invalid-utf8',
        'invalid-base64',
        'null-bytes',
        'content-type',
        'strings',
        'generated',
      ]),
    );
  });
});

describeHostileBodies('text routes', async ({ demo, bearer }): Promise<FuzzRoute[]> => {
  const vendorKey = { 'x-vendor-api-key': demo.key };
  return [
    { name: 'chat', method: 'POST', path: '/v1/chat/completions', headers: bearer },
    {
      name: 'native generate',
      method: 'POST',
      path: '/v1beta/models/kappa-2.0-flash:generateContent',
      headers: vendorKey,
    },
    {
      name: 'native stream',
      method: 'POST',
      path: '/v1beta/models/kappa-2.0-flash:streamGenerateContent?alt=sse',
      headers: vendorKey,
    },
  ];
});
