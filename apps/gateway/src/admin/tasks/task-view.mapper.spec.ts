import type { Task } from '@gateway/db';
import type { TaskMoney } from './task-money.reader';
import { timelineOf, toAdminTaskView, toTaskDetailView } from './task-view.mapper';

const at = (text: string) => new Date(`2026-01-01T${text}.000Z`);

const TASK = {
  id: 'video_a',
  kind: 'video',
  keyId: 'key_a',
  accountId: 'acct_a',
  model: 'delta-2',
  channelId: 'ch_a',
  status: 'completed',
  progress: 100,
  request: { prompt: 'secret prompt' },
  upstreamHandle: { taskId: 'up_1' },
  holdRequestId: 'video_a',
  failureReason: null,
  remixedFromId: null,
  deletedAt: null,
  requestClearedAt: null,
  deadlineAt: at('01:00:00'),
  createdAt: at('00:00:00'),
  updatedAt: at('00:00:10'),
  completedAt: at('00:00:10'),
} as unknown as Task;

const MONEY: TaskMoney = {
  view: {
    holdStatus: 'settled',
    heldMicros: '100',
    capturedMicros: '60',
    releasedMicros: '40',
    refundedMicros: '0',
  },
  holdSettledAt: at('00:00:11'),
  capturedAt: at('00:00:11'),
  refundedAt: null,
  refundNote: null,
};

describe('task views', () => {
  it('calls a task stuck only while unfinished past its deadline', () => {
    const late = at('02:00:00');
    expect(toAdminTaskView(TASK, MONEY, late).stuck).toBe(false);
    expect(toAdminTaskView({ ...TASK, status: 'processing' }, MONEY, late).stuck).toBe(true);
    expect(toAdminTaskView({ ...TASK, status: 'queued' }, MONEY, at('00:30:00')).stuck).toBe(false);
  });

  it('never shows the request', () => {
    expect(JSON.stringify(toTaskDetailView(TASK, MONEY, 1, at('00:01:00')))).not.toContain('secret prompt');
  });

  it('orders the timeline oldest first, keeping the lifecycle order on ties, and leaves out what never happened', () => {
    expect(timelineOf(TASK, MONEY)).toEqual([
      { event: 'created', at: '2026-01-01T00:00:00.000Z' },
      { event: 'completed', at: '2026-01-01T00:00:10.000Z' },
      { event: 'last_written', at: '2026-01-01T00:00:10.000Z' },
      { event: 'hold_settled', at: '2026-01-01T00:00:11.000Z' },
      { event: 'captured', at: '2026-01-01T00:00:11.000Z' },
    ]);
  });
});
