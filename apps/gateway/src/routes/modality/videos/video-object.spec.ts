import { DEADLINE_EXCEEDED } from '@gateway/tasks';
import { DEADLINE_REASON } from './video-failure';
import { toVideoObject, type VideoTaskColumns } from './video-object';

const BASE = 'https://gateway.example.test';
const call = { kind: 'video', prompt: 'A kite', seconds: 10, size: '720P' };

function row(fields: Partial<VideoTaskColumns>): VideoTaskColumns {
  return {
    id: 'video_AAAAAAAAAAAAAAAAAAAAAA',
    model: 'zeta-video-3-pro',
    status: 'queued',
    progress: 0,
    createdAt: new Date('2026-11-24T10:00:00.500Z'),
    completedAt: null,
    failureReason: null,
    remixedFromId: null,
    request: call,
    ...fields,
  };
}

describe('toVideoObject', () => {
  it('shows an unfinished video without completed_at, video_url or error, seconds as a string', () => {
    expect(toVideoObject(row({ status: 'processing', progress: 40 }), BASE)).toEqual({
      id: 'video_AAAAAAAAAAAAAAAAAAAAAA',
      object: 'video',
      model: 'zeta-video-3-pro',
      status: 'processing',
      progress: 40,
      created_at: Date.parse('2026-11-24T10:00:00Z') / 1000,
      completed_at: null,
      expires_at: null,
      prompt: 'A kite',
      seconds: '10',
      size: '720P',
      remixed_from_video_id: null,
      error: null,
    });
  });

  it('gives a completed video the gateway’s content URL and its completion time', () => {
    const video = toVideoObject(
      row({
        status: 'completed',
        progress: 90,
        completedAt: new Date('2026-11-24T10:01:00Z'),
        remixedFromId: 'video_B',
      }),
      BASE,
    );
    expect(video).toMatchObject({
      status: 'completed',
      progress: 100,
      completed_at: Date.parse('2026-11-24T10:01:00Z') / 1000,
      video_url: `${BASE}/v1/videos/video_AAAAAAAAAAAAAAAAAAAAAA/content`,
      remixed_from_video_id: 'video_B',
    });
  });

  it.each([
    [
      'content_policy: The prompt was blocked.',
      { code: 'content_policy_violation', message: 'The prompt was blocked.' },
    ],
    [
      'bad_request: seconds must be 4, 8 or 12',
      { code: 'invalid_request', message: 'seconds must be 4, 8 or 12' },
    ],
    [
      'overload: upstream said 503 with secrets',
      { code: 'upstream_error', message: expect.not.stringContaining('secrets') },
    ],
    [DEADLINE_EXCEEDED, { code: 'deadline_exceeded', message: expect.stringContaining('deadline') }],
    [
      'the channel of the task no longer exists',
      { code: 'task_failed', message: expect.stringContaining('no longer exists') },
    ],
  ])('explains a failure of %j', (failureReason, error) => {
    expect(toVideoObject(row({ status: 'failed', failureReason }), BASE).error).toEqual(error);
  });

  it('reads the deadline reason the task worker writes', () => {
    expect(DEADLINE_REASON).toBe(DEADLINE_EXCEEDED);
  });

  it('shows a cancelled video without an error', () => {
    const video = toVideoObject(row({ status: 'cancelled', failureReason: 'cancelled by the client' }), BASE);
    expect(video).toMatchObject({ status: 'cancelled', error: null });
    expect(video).not.toHaveProperty('video_url');
  });
});
