import type { RequestLog } from '@gateway/db';
import { toLogView } from './log-view.mapper';

describe('toLogView', () => {
  it('writes the cost as an exact string and keeps absent ids null', () => {
    const row: RequestLog = {
      id: 42n,
      requestId: 'req_1',
      keyId: null,
      accountId: null,
      model: 'kappa-2.0-flash',
      channelId: null,
      route: '/v1/chat/completions',
      httpStatus: 401,
      endReason: 'client_error',
      latencyMs: 3,
      ttfbMs: null,
      inputTokens: 0,
      outputTokens: 0,
      imageCount: 0,
      mediaSeconds: 0,
      costMicros: 9007199254740993n,
      overageMicros: 12n,
      attempts: 0,
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
    };
    const view = toLogView(row);
    expect(view.costMicros).toBe('9007199254740993');
    expect(view.overageMicros).toBe('12');
    expect(view.keyId).toBeNull();
    expect(view.ttfbMs).toBeNull();
    expect(view.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(view).not.toHaveProperty('id');
  });
});
