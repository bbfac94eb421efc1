import type { Task } from '@gateway/db';
import { alphaCreationsAnswer, alphaStatusOf, alphaSubmissionAnswer } from './alpha-answers';

const BASE = 'https://gateway.example';

function taskOf(fields: Partial<Task>): Task {
  return {
    id: 'video_AAAAAAAAAAAAAAAAAAAAAA',
    model: 'alphaq2-pro',
    status: 'queued',
    createdAt: new Date('2026-11-24T10:00:00.900Z'),
    failureReason: null,
    request: { kind: 'video', family: 'alpha', extras: { payload: 'echo' } },
    ...fields,
  } as Task;
}

describe('alpha route answers', () => {
  it.each([
    ['queued', 'processing'],
    ['processing', 'processing'],
    ['completed', 'completed'],
    ['failed', 'failed'],
    ['cancelled', 'failed'],
  ])('shows a %s task as %s', (status, shown) => {
    expect(alphaStatusOf({ status })).toBe(shown);
  });

  it('answers a submission with the task id, its status and a Unix integer', () => {
    expect(alphaSubmissionAnswer(taskOf({}))).toEqual({
      task_id: 'video_AAAAAAAAAAAAAAAAAAAAAA',
      status: 'processing',
      created_at: 1795514400,
    });
  });

  it("answers a completed task with the gateway's content URL as its creation, and the payload echoed", () => {
    expect(alphaCreationsAnswer(taskOf({ status: 'completed' }), BASE)).toEqual({
      id: 'video_AAAAAAAAAAAAAAAAAAAAAA',
      task_id: 'video_AAAAAAAAAAAAAAAAAAAAAA',
      status: 'completed',
      state: 'success',
      err_code: '',
      model: 'alphaq2-pro',
      created_at: 1795514400,
      payload: 'echo',
      creations: [
        { id: 'video_AAAAAAAAAAAAAAAAAAAAAA', url: `${BASE}/v1/videos/video_AAAAAAAAAAAAAAAAAAAAAA/content` },
      ],
    });
  });

  it.each([
    ['queued', null, 'queueing', ''],
    [
      'failed',
      'content_policy: the upstream task failed (CreationPolicyViolation)',
      'failed',
      'CreationPolicyViolation',
    ],
    ['failed', 'bad_request: the upstream task failed (ImageDownloadFailure)', 'failed', 'BadRequest'],
    ['failed', 'deadline exceeded', 'failed', 'InternalServiceFailure'],
    ['cancelled', 'cancelled by the client', 'failed', 'UserCancelled'],
  ])(
    'answers a %s task (%s) in the wire words %s / %s, without creations',
    (status, failureReason, state, errCode) => {
      const answer = alphaCreationsAnswer(taskOf({ status, failureReason }), BASE);
      expect(answer).toMatchObject({ state, err_code: errCode, creations: [] });
    },
  );
});
