import { validateBody } from '../validation/validate-body.util';
import { LogsQueryDto } from './logs-query.dto';
import { UsageQueryDto } from './usage-query.dto';

describe('LogsQueryDto', () => {
  it('defaults the page size to 50', () => {
    const result = validateBody(LogsQueryDto, {});
    expect(result.ok && result.value.limit).toBe(50);
  });

  it('converts numeric query strings and keeps the rest', () => {
    const query = {
      limit: '20',
      status: '502',
      model: 'img-1',
      from: '2025-01-01',
      to: '2025-01-02T00:00:00Z',
    };
    const result = validateBody(LogsQueryDto, query, { refuseUnknownFields: true });
    expect(result.ok && result.value).toMatchObject({ ...query, limit: 20, status: 502 });
  });

  it.each([
    [{ limit: '0' }, 'limit', 'limit must be between 1 and 500'],
    [{ limit: '501' }, 'limit', 'limit must be between 1 and 500'],
    [{ limit: 'many' }, 'limit', 'limit must be an integer'],
    [{ limit: '2.5' }, 'limit', 'limit must be an integer'],
    [{ status: '700' }, 'status', 'status must be between 100 and 599'],
    [{ from: 'yesterday' }, 'from', 'from must be an ISO 8601 date or date-time'],
    [{ cursor: '' }, 'cursor', 'cursor must not be empty'],
  ])('refuses %j at %s', (query, field, message) => {
    const result = validateBody(LogsQueryDto, query);
    expect(!result.ok && result.problems).toEqual([{ field, message }]);
  });
});

describe('UsageQueryDto', () => {
  it.each(['key', 'model', 'channel', 'day', 'hour', 'account', 'hour,account,key,model,channel'])(
    'accepts groupBy=%s',
    (groupBy) => {
      expect(validateBody(UsageQueryDto, { groupBy, from: '2025-01-01' }).ok).toBe(true);
    },
  );

  it.each([
    [{}, 'groupBy is required'],
    [{ groupBy: 'tenant' }, 'groupBy must be a comma list of day, hour, account, key, model, channel'],
    [{ groupBy: 'model,' }, 'groupBy must be a comma list of day, hour, account, key, model, channel'],
    [{ groupBy: 'day,hour' }, 'groupBy must name at most one of day, hour'],
    [{ groupBy: 'model,model' }, 'groupBy must not name a grouping twice'],
  ])('refuses %j', (query, message) => {
    const result = validateBody(UsageQueryDto, query);
    expect(!result.ok && result.problems).toEqual([{ field: 'groupBy', message }]);
  });
});
