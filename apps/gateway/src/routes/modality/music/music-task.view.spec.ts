import type { Task } from '@gateway/db';
import { toLambdaTaskView } from './music-task.view';

const BASE = 'https://gateway.test';
const CREATED = new Date('2026-11-24T12:00:00Z');

function task(fields: Partial<Task> = {}): Task {
  return {
    id: 'music_AAAAAAAAAAAAAAAAAAAAAA',
    kind: 'music',
    model: 'lambda-v4',
    status: 'processing',
    progress: 40,
    request: { kind: 'lambda', action: 'music', fields: { prompt: 'x' }, continueOf: null },
    upstreamHandle: { taskId: 'up-1', action: 'music' },
    failureReason: null,
    createdAt: CREATED,
    updatedAt: new Date('2026-11-24T12:05:00Z'),
    completedAt: null,
    ...fields,
  } as Task;
}

const clip = {
  id: 'clip-1',
  title: 'Night Drive',
  status: 'complete',
  audio_url: 'https://files.upstream.test/c1.mp3',
  video_url: '',
  image_url: 'https://files.upstream.test/c1.jpeg',
  image_large_url: 'https://files.upstream.test/c1_l.jpeg',
  model_name: 'lambda-v4',
  major_model_version: 'v4',
  metadata: { duration: 180.5, tags: 'synthwave' },
  secret_field: 'not shown',
};

describe('toLambdaTaskView', () => {
  it.each([
    [{ status: 'queued', upstreamHandle: null }, 'NOT_START'],
    [{ status: 'processing', upstreamHandle: null }, 'SUBMITTED'],
    [{ status: 'processing' }, 'IN_PROGRESS'],
    [{ status: 'failed', failureReason: 'bad_request: lyrics rejected' }, 'FAILURE'],
    [{ status: 'cancelled', failureReason: 'cancelled by the client' }, 'FAILURE'],
  ] as const)('shows a row %j as %s, without clips until it completed', (fields, status) => {
    const view = toLambdaTaskView(task(fields as Partial<Task>), undefined, BASE);
    expect(view).toMatchObject({
      task_id: 'music_AAAAAAAAAAAAAAAAAAAAAA',
      action: 'MUSIC',
      status,
      data: [],
    });
    expect(view.fail_reason).toBe('failureReason' in fields ? fields.failureReason : '');
    expect(view.submit_time).toBe(CREATED.getTime() / 1000);
  });

  it('shows a completed song’s clips with the gateway’s URLs, where the upstream had a file', () => {
    const completedAt = new Date('2026-11-24T12:04:00Z');
    const view = toLambdaTaskView(
      task({ status: 'completed', progress: 100, completedAt }),
      [{ url: clip.audio_url, contentType: 'audio/mpeg', detail: clip }],
      BASE,
    );
    expect(view).toMatchObject({
      status: 'SUCCESS',
      progress: '100%',
      finish_time: completedAt.getTime() / 1000,
    });
    expect(view.data).toEqual([
      {
        id: 'clip-1',
        title: 'Night Drive',
        status: 'complete',
        model_name: 'lambda-v4',
        major_model_version: 'v4',
        metadata: { duration: 180.5, tags: 'synthwave' },
        audio_url: `${BASE}/lambda/content/music_AAAAAAAAAAAAAAAAAAAAAA/clip-1/audio`,
        video_url: '',
        image_url: `${BASE}/lambda/content/music_AAAAAAAAAAAAAAAAAAAAAA/clip-1/image`,
        image_large_url: `${BASE}/lambda/content/music_AAAAAAAAAAAAAAAAAAAAAA/clip-1/image_large`,
      },
    ]);
  });

  it('shows lyrics as one object with their text, and null before they exist', () => {
    const request = { kind: 'lambda', action: 'lyrics', fields: { prompt: 'rain' }, continueOf: null };
    const lyrics = {
      id: 'l-1',
      status: 'complete',
      title: 'Tin Roof',
      text: 'ignored: the bytes are the text',
    };
    const done = toLambdaTaskView(
      task({ status: 'completed', request }),
      [{ bytes: Buffer.from('[Verse] rain'), contentType: 'text/plain', detail: lyrics }],
      BASE,
    );
    expect(done).toMatchObject({
      action: 'LYRICS',
      data: { id: 'l-1', status: 'complete', title: 'Tin Roof', text: '[Verse] rain' },
    });
    expect(toLambdaTaskView(task({ request }), undefined, BASE).data).toBeNull();
  });
});
