import { LogsQueryDto } from '@gateway/contracts';
import { encodeLogCursor } from './log-cursor.util';
import { toLogsWhere } from './logs-filter';

function query(fields: Partial<LogsQueryDto>): LogsQueryDto {
  return Object.assign(new LogsQueryDto(), fields);
}

describe('toLogsWhere', () => {
  it('filters by every given field, the time range half-open, and below the cursor', () => {
    const where = toLogsWhere(
      query({
        keyId: 'key_1',
        accountId: 'acct_1',
        requestId: 'req_1',
        model: 'm',
        channelId: 'ch_1',
        status: 200,
        endReason: 'completed',
        from: '2026-01-01T00:00:00Z',
        to: '2026-01-02T00:00:00Z',
        cursor: encodeLogCursor(100n),
      }),
    );
    expect(where).toEqual({
      keyId: 'key_1',
      accountId: 'acct_1',
      requestId: 'req_1',
      model: 'm',
      channelId: 'ch_1',
      httpStatus: 200,
      endReason: 'completed',
      createdAt: { gte: new Date('2026-01-01T00:00:00Z'), lt: new Date('2026-01-02T00:00:00Z') },
      id: { lt: 100n },
    });
  });

  it('has no time or id condition when none is asked for', () => {
    const where = toLogsWhere(query({ model: 'm' }));
    expect(where).not.toHaveProperty('createdAt');
    expect(where).not.toHaveProperty('id');
  });
});
