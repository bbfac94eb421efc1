import type { Logger } from 'pino';
import type { GatewayConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import { TaskCreation } from './task-creation.service';
import type { TaskRuntime } from './task-runtime';
import type { TaskStepQueues } from './task-step.queues';

/** A runtime whose row writes fail, recording the holds released. */
function failingRuntime(released: string[], releaseFails = false): TaskRuntime {
  return {
    store: { create: () => Promise.reject(new Error('connection terminated')) },
    settlement: {
      releaseHold: (holdRequestId: string) => {
        released.push(holdRequestId);
        return releaseFails ? Promise.reject(new Error('still down')) : Promise.resolve();
      },
    },
  } as unknown as TaskRuntime;
}

function creation(errors: unknown[] = []): TaskCreation {
  const logger = { error: (fields: unknown) => errors.push(fields) } as unknown as Logger;
  return new TaskCreation({} as TaskStepQueues, logger, {} as GatewayConfig);
}

const ROW = {
  id: 'task_1',
  kind: 'video' as const,
  keyId: 'key_1',
  accountId: 'acct_1',
  model: 'm',
  request: {},
  holdRequestId: 'hold_of_task_1',
  deadlineAt: new Date(0),
};

describe('TaskCreation.insertRow', () => {
  it('releases the hold the row names when the row cannot be written, and answers 503', async () => {
    const released: string[] = [];
    const refusal = await creation()
      .insertRow(failingRuntime(released), ROW)
      .catch((error: unknown) => error);
    expect(released).toEqual(['hold_of_task_1']);
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).code).toBe('service_unavailable');
  });

  it('still answers 503 when the release fails too, and logs the hold left to the reaper', async () => {
    const released: string[] = [];
    const errors: unknown[] = [];
    const refusal = await creation(errors)
      .insertRow(failingRuntime(released, true), ROW)
      .catch((error: unknown) => error);
    expect((refusal as GatewayError).code).toBe('service_unavailable');
    expect(errors).toEqual([expect.objectContaining({ holdRequestId: 'hold_of_task_1' })]);
  });
});
