import type { Task } from '@gateway/db';
import { gammaTaskAnswer } from './gamma-answers';

const BASE = 'https://gateway.example';
const CREATED = new Date(Date.UTC(2026, 10, 24, 12, 0, 0));
const DONE = new Date(Date.UTC(2026, 10, 24, 12, 3, 10));

function task(fields: Partial<Task>): Task {
  return {
    id: 'video_q2Xr0mRj3lBn5tPw8yZc1A',
    kind: 'video',
    status: 'queued',
    progress: 0,
    request: { family: 'gamma', seconds: 10, metadata: { external_task_id: 'mine-7' } },
    mediaSeconds: null,
    failureReason: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    completedAt: null,
    ...fields,
  } as Task;
}

describe('a task row in the §5.8 envelope', () => {
  it('answers a queued task submitted, in milliseconds, with its external id', () => {
    expect(gammaTaskAnswer(task({}), BASE, 'req_1')).toEqual({
      code: 0,
      message: 'SUCCEED',
      request_id: 'req_1',
      data: {
        task_id: 'video_q2Xr0mRj3lBn5tPw8yZc1A',
        task_status: 'submitted',
        task_status_msg: '',
        task_info: { external_task_id: 'mine-7' },
        created_at: CREATED.getTime(),
        updated_at: CREATED.getTime(),
      },
    });
  });

  it('answers a completed task succeed with the gateway content URL and the seconds produced', () => {
    const { data } = gammaTaskAnswer(
      task({ status: 'completed', completedAt: DONE, mediaSeconds: 9 }),
      BASE,
      'req_2',
    );
    expect(data).toMatchObject({
      task_status: 'succeed',
      updated_at: DONE.getTime(),
      task_result: {
        videos: [
          {
            id: 'video_q2Xr0mRj3lBn5tPw8yZc1A',
            url: `${BASE}/v1/videos/video_q2Xr0mRj3lBn5tPw8yZc1A/content`,
            duration: '9.0',
          },
        ],
      },
    });
  });

  it.each([
    [
      'failed',
      'content_policy: The generated video did not pass the content audit.',
      'The generated video did not pass the content audit.',
    ],
    ['cancelled', 'cancelled by the client', 'The task was cancelled.'],
  ])('answers a %s task failed, with why and no result', (status, failureReason, message) => {
    const { data } = gammaTaskAnswer(task({ status, failureReason }), BASE, 'req_3');
    expect(data).toMatchObject({ task_status: 'failed', task_status_msg: message });
    expect(data.task_result).toBeUndefined();
  });
});
