import { videoAdapterFor } from '@gateway/providers';
import {
  UpstreamError,
  type JsonHandle,
  type TaskAdapterContext,
  type TaskCompleted,
  type VideoAdapter,
  type VideoCall,
  type VideoImage,
  type VideoRequest,
} from '@gateway/providers-core';
import { videoRequestOf } from '@gateway/providers-core/testing';
import { DEFAULT_COMPAT_KEY } from '@gateway/simulators';
import { imageSize } from 'image-size';
import { PNG } from 'pngjs';
import {
  downloadedVideo,
  completedOutputUrl,
  expectMp4Download,
  plannedVideoCall,
  pollUntilSettled,
  registeredVideoTask,
  taskContext,
} from './testing/registered-video-task.util';
import { useSimulatorSession } from './testing/simulator-session';

/**
 * The compat channel type's video capability (rules, task submit/poll/cancel, content, characters)
 * against the compat videos simulator over HTTP, taken from the registry as the worker takes it.
 */
describe('compat video adapter against the simulator', () => {
  const simulator = useSimulatorSession();
  const { rules, task } = registeredVideoTask('compat');
  const video = (): VideoAdapter => {
    const adapter = videoAdapterFor('compat');
    if (!adapter?.openContent || !adapter.createCharacter) throw new Error('compat serves no video content');
    return adapter;
  };
  let submissions = 0;
  const contextFor = (directives = '', submissionKey = `task-${(submissions += 1)}`): TaskAdapterContext =>
    taskContext(simulator.contextFor(DEFAULT_COMPAT_KEY, directives), submissionKey);

  const plan = (fields: Partial<VideoRequest> & { model: string }): VideoCall =>
    plannedVideoCall(rules, videoRequestOf({ prompt: 'a lighthouse at dusk', ...fields }));
  const submit = async (call: VideoCall, context: TaskAdapterContext): Promise<JsonHandle> =>
    (
      await task.submit(
        { upstreamModel: call.family === 'nu' ? 'nu-1' : call.family, request: call },
        context,
      )
    ).handle;
  const completed = async (
    call: VideoCall,
    directives = '',
  ): Promise<{ handle: JsonHandle; done: TaskCompleted }> => {
    const context = contextFor(directives);
    const handle = await submit(call, context);
    const { outcome } = await pollUntilSettled(task, handle, context);
    if (outcome.state !== 'completed') throw new Error(`ended ${outcome.state}`);
    return { handle, done: outcome };
  };
  // Filter type 0: pngjs's adaptive filters call Math.abs per byte, which Jest's sandbox slows ~200×.
  const dataPng = (width: number, height: number): VideoImage => ({
    role: 'reference',
    url: `data:image/png;base64,${PNG.sync.write(new PNG({ width, height }), { filterType: 0 }).toString('base64')}`,
    source: 'images',
  });

  it('delta-2 from create to completion: queued, processing with progress, then completed with its seconds', async () => {
    const context = contextFor('polls=2');
    const handle = await submit(plan({ model: 'delta-2', seconds: 8, resolution: '1280x720' }), context);
    expect(await simulator.lastReceivedJson()).toEqual({
      model: 'delta-2',
      prompt: 'a lighthouse at dusk',
      seconds: '8',
      size: '1280x720',
    });
    // Polled one by one here: the progress of each pending answer is part of what is checked.
    expect(await task.poll(handle, context)).toEqual({ state: 'pending', phase: 'queued', progress: 0 });
    expect(await task.poll(handle, context)).toEqual({ state: 'pending', phase: 'processing', progress: 50 });
    expect(await task.poll(handle, context)).toEqual({
      state: 'completed',
      outputs: [],
      usage: { video: { seconds: 8, resolution: '720p' } },
      warnings: [],
    });
  });

  it.each(['video_url', 'url', 'output.url', 'metadata.url'])(
    'reads the result link of placement %s, and it downloads the video',
    async (placement) => {
      const { done } = await completed(plan({ model: 'epsilon_3_1' }), `placement=${placement}`);
      expect(done.outputs).toHaveLength(1);
      await expectMp4Download(completedOutputUrl(done));
    },
  );

  it('gives no output URL on content-only, and serves the bytes from /content with Range and variants', async () => {
    const { handle, done } = await completed(plan({ model: 'delta-2' }), 'placement=content-only');
    expect(done.outputs).toEqual([]);
    const context = contextFor();
    const whole = await video().openContent!(handle, { variant: 'video' }, context);
    expect(whole.status).toBe(200);
    const bytes = await whole.bytes();
    const part = await video().openContent!(handle, { variant: 'video', range: 'bytes=1000-1999' }, context);
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${bytes.length}`);
    expect((await part.bytes()).equals(bytes.subarray(1000, 2000))).toBe(true);
    const thumbnail = await video().openContent!(handle, { variant: 'thumbnail' }, context);
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    expect(imageSize(await thumbnail.bytes())).toMatchObject({ width: 720, height: 1280 });
    const sprites = await video().openContent!(handle, { variant: 'spritesheet' }, context);
    expect(sprites.headers['content-type']).toBe('image/jpeg');
    await sprites.dump();
  });

  it('maps the relay status words words= picks onto the phases', async () => {
    const context = contextFor('polls=2;words=submitted+generating+success');
    const handle = await submit(plan({ model: 'nu-1', seconds: 6 }), context);
    const { phases, outcome } = await pollUntilSettled(task, handle, context);
    expect(phases).toEqual(['queued', 'processing']);
    expect(outcome).toMatchObject({ state: 'completed', usage: { video: { seconds: 6 } } });
  });

  it('refreshes an expired result link on the next poll', async () => {
    const context = contextFor('placement=video_url;expired_links=1');
    const handle = await submit(plan({ model: 'delta-2' }), context);
    const { outcome: first } = await pollUntilSettled(task, handle, context);
    const expiredUrl = first.state === 'completed' ? first.outputs[0].url : undefined;
    expect((await downloadedVideo(expiredUrl ?? '')).status).toBe(403);
    const again = await task.poll(handle, context);
    const freshUrl = again.state === 'completed' ? again.outputs[0].url : undefined;
    expect(freshUrl).not.toBe(expiredUrl);
    expect((await downloadedVideo(freshUrl ?? '')).status).toBe(200);
  });

  it('uploads zeta first and last frames as two input_reference files, billed at the fixed 10 s of -pro', async () => {
    const call = plan({ model: 'zeta-video-3-pro', seconds: 5, images: [dataPng(16, 24), dataPng(16, 24)] });
    const context = contextFor();
    const handle = await submit(call, context);
    const { form } = await simulator.lastReceived();
    expect(form?.fields).toMatchObject({ model: 'zeta-video-3-pro', seconds: '10', size: '720P' });
    expect(form?.files.map((file) => [file.field, file.contentType])).toEqual([
      ['input_reference', 'image/png'],
      ['input_reference', 'image/png'],
    ]);
    const { outcome } = await pollUntilSettled(task, handle, context);
    expect(outcome).toMatchObject({ usage: { video: { seconds: 10, resolution: '720p' } } });
  });

  it('sends epsilon reference images in images[] at 8 s, which the wire requires', async () => {
    const call = plan({
      model: 'epsilon_3_1',
      images: [
        dataPng(8, 8),
        { role: 'reference', url: 'https://images.example.test/a.png', source: 'images' },
      ],
    });
    await submit(call, contextFor());
    expect(await simulator.lastReceivedJson()).toMatchObject({
      seconds: '8',
      size: '1280x720',
      images: expect.any(Array),
    });
  });

  it('remixes a finished delta video into a new task on the remix route', async () => {
    const { handle: source } = await completed(plan({ model: 'delta-2', seconds: 12 }));
    const remix = plan({ model: 'delta-2', prompt: 'now at night', remixOf: source });
    expect(remix).toMatchObject({ mode: 'remix', seconds: 12 });
    const context = contextFor();
    const handle = await submit(remix, context);
    const received = await simulator.lastReceived();
    expect(received.path).toBe(`/v1/videos/${(source as { videoId: string }).videoId}/remix`);
    const { outcome } = await pollUntilSettled(task, handle, context);
    expect(outcome).toMatchObject({ state: 'completed', usage: { video: { seconds: 12 } } });
  });

  it('cancels a running video: the upstream then reports it cancelled, which fails the task', async () => {
    const context = contextFor('polls=10');
    const handle = await submit(plan({ model: 'delta-2' }), context);
    await task.cancel!(handle, context);
    expect(await task.poll(handle, context)).toMatchObject({
      state: 'failed',
      failure: { kind: 'bad_request' },
    });
  });

  it('resubmits under the same Idempotency-Key without a second upstream create', async () => {
    const call = plan({ model: 'delta-2' });
    const first = await submit(call, contextFor('', 'video_resubmitted'));
    const second = await submit(call, contextFor('', 'video_resubmitted'));
    expect(second).toEqual(first);
    const creates = (await (
      await fetch(`${simulator.baseUrl()}/__sim/videos/creates?key=video_resubmitted`)
    ).json()) as Record<string, { requests: number; created: number }>;
    expect(creates['video_resubmitted']).toMatchObject({ requests: 2, created: 1 });
  });

  it('classifies a moderated prompt at create, and a moderated output at poll, as content_policy', async () => {
    const refusal = await task
      .submit({ upstreamModel: 'delta-2', request: plan({ model: 'delta-2' }) }, contextFor('block=prompt'))
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(UpstreamError);
    expect((refusal as UpstreamError).failure).toMatchObject({
      kind: 'content_policy',
      upstreamCode: 'moderation_blocked',
    });
    const context = contextFor('block=output');
    const handle = await submit(plan({ model: 'delta-2' }), context);
    const { outcome } = await pollUntilSettled(task, handle, context);
    expect(outcome).toMatchObject({ state: 'failed', failure: { kind: 'content_policy' } });
  });

  it('creates a character from a clip and its name', async () => {
    const { handle } = await completed(plan({ model: 'delta-2' }));
    const clip = await (await video().openContent!(handle, { variant: 'video' }, contextFor())).bytes();
    const character = await video().createCharacter!(
      { name: 'Captain Otter', bytes: clip, contentType: 'video/mp4', window: { start: 0, end: 2 } },
      'delta-2',
      contextFor(),
    );
    expect(character).toMatchObject({ id: expect.stringMatching(/^char_/), name: 'Captain Otter' });
    expect(character.warnings).toHaveLength(1);
    const { form } = await simulator.lastReceived();
    expect(form?.fields).toEqual({ name: 'Captain Otter' });
    expect(form?.files).toEqual([
      expect.objectContaining({ field: 'video', contentType: 'video/mp4', bytes: clip.length }),
    ]);
  });
});
