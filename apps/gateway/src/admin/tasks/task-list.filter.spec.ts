import { GatewayError } from '@gateway/errors';
import { encodeAccountCursor } from '../accounts/account-cursor.util';
import { TaskListQueryDto } from './task-list-query.dto';
import { toTasksWhere } from './task-list.filter';

const NOW = new Date('2026-01-02T03:04:05.000Z');

function query(fields: Partial<TaskListQueryDto>): TaskListQueryDto {
  return Object.assign(new TaskListQueryDto(), fields);
}

describe('toTasksWhere', () => {
  it('passes the plain filters through and bounds the creation time', () => {
    expect(
      toTasksWhere(
        query({
          status: 'queued',
          kind: 'video',
          model: 'delta-2',
          accountId: 'acct_a',
          channelId: 'ch_a',
          createdAfter: '2026-01-01T00:00:00Z',
          createdBefore: '2026-01-02T00:00:00Z',
        }),
        NOW,
      ),
    ).toEqual({
      status: 'queued',
      kind: 'video',
      model: 'delta-2',
      accountId: 'acct_a',
      channelId: 'ch_a',
      createdAt: { gte: new Date('2026-01-01T00:00:00Z'), lt: new Date('2026-01-02T00:00:00Z') },
    });
  });

  it('takes stuck as unfinished past the deadline, and stuck=false as its complement', () => {
    expect(toTasksWhere(query({ stuck: 'true' }), NOW).AND).toEqual([
      { status: { in: ['queued', 'processing'] }, deadlineAt: { lt: NOW } },
    ]);
    expect(toTasksWhere(query({ stuck: 'false' }), NOW).AND).toEqual([
      { OR: [{ status: { notIn: ['queued', 'processing'] } }, { deadlineAt: { gte: NOW } }] },
    ]);
  });

  it('starts strictly after the cursor position, by time then id', () => {
    const cursor = encodeAccountCursor({ createdAt: NOW, id: 'video_b' });
    expect(toTasksWhere(query({ cursor }), NOW).AND).toEqual([
      { OR: [{ createdAt: { lt: NOW } }, { createdAt: NOW, id: { lt: 'video_b' } }] },
    ]);
  });

  it.each([['+020000-01-01T00:00:00Z'], ['-000001-01-01T00:00:00Z']])(
    'refuses a time Postgres may not compare (%s), naming the field',
    (createdAfter) => {
      expect(() => toTasksWhere(query({ createdAfter }), NOW)).toThrow(GatewayError);
    },
  );

  it('refuses a cursor it did not mint', () => {
    expect(() => toTasksWhere(query({ cursor: 'bm90IGEgY3Vyc29y' }), NOW)).toThrow(/cursor/);
  });
});
