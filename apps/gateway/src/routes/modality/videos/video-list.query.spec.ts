import { GatewayError } from '@gateway/errors';
import { toVideoListQuery } from './video-list.query';

describe('toVideoListQuery', () => {
  it('defaults to 20 newest first', () => {
    expect(toVideoListQuery({})).toEqual({ limit: 20, order: 'desc' });
  });

  it('reads after, limit and order', () => {
    expect(toVideoListQuery({ after: 'video_x', limit: '100', order: 'asc' })).toEqual({
      after: 'video_x',
      limit: 100,
      order: 'asc',
    });
  });

  it.each([
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '1.5' }, 'limit'],
    [{ order: 'sideways' }, 'order'],
    [{ after: ['a', 'b'] }, 'after'],
  ])('refuses %j', (query, param) => {
    expect(() => toVideoListQuery(query)).toThrow(GatewayError);
    try {
      toVideoListQuery(query);
    } catch (error) {
      expect((error as GatewayError).param).toBe(param);
    }
  });
});
