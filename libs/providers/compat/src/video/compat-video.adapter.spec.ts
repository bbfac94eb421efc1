import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonHandle } from '@gateway/providers-core';
import {
  plainKeyContext,
  upstreamFailureOf,
  useRecordedUpstreams,
  type RecordedUpstream,
} from '@gateway/providers-core/testing';
import { compatVideoAdapter } from './compat-video.adapter';

const fixture = (name: string): Buffer => readFileSync(join(__dirname, '..', '__fixtures__', name));
const VIDEO_ID = 'video_68d7512d07848190b3e45da0ecbebcde';
const HANDLE: JsonHandle = { videoId: VIDEO_ID, seconds: 8, size: '1280x720', resolution: '720p' };
const CLIP = Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from('ftypisom'), Buffer.alloc(200, 7)]);

describe('compatVideoAdapter', () => {
  const session = useRecordedUpstreams();
  let upstream: RecordedUpstream;
  const context = () =>
    plainKeyContext({ baseUrl: upstream.baseUrl, apiKey: 'compat-secret-1', http: session.http() });

  it('offers the three content variants of the wire, and its rules', () => {
    expect(compatVideoAdapter.contentVariants).toEqual(['video', 'thumbnail', 'spritesheet']);
    expect(compatVideoAdapter.servesVideoModel('zeta-video-3')).toBe(true);
    expect(compatVideoAdapter.planVideo).toBeDefined();
  });

  describe('openContent', () => {
    it('asks /content for the variant with the key and the client’s Range, and hands the answer back as is', async () => {
      upstream = await session.replay({
        [`GET /v1/videos/${VIDEO_ID}/content?variant=video`]: {
          status: 206,
          headers: { 'content-type': 'video/mp4', 'content-range': 'bytes 0-3/1000' },
          body: Buffer.from([1, 2, 3, 4]),
        },
      });
      const response = await compatVideoAdapter.openContent!(
        HANDLE,
        { variant: 'video', range: 'bytes=0-3' },
        context(),
      );
      expect(response.status).toBe(206);
      expect(response.headers['content-range']).toBe('bytes 0-3/1000');
      expect([...(await response.bytes())]).toEqual([1, 2, 3, 4]);
      const [sent] = upstream.requests;
      expect(sent.headers).toMatchObject({ authorization: 'Bearer compat-secret-1', range: 'bytes=0-3' });
    });

    it('sends no Range when the client gave none, and relays an error answer for the caller', async () => {
      upstream = await session.replay({
        [`GET /v1/videos/${VIDEO_ID}/content?variant=thumbnail`]: {
          status: 404,
          headers: { 'content-type': 'application/json' },
          body: fixture('video-not-found.body'),
        },
      });
      const response = await compatVideoAdapter.openContent!(HANDLE, { variant: 'thumbnail' }, context());
      expect(response.status).toBe(404);
      await response.dump();
      expect(upstream.requests[0].headers.range).toBeUndefined();
    });
  });

  describe('createCharacter', () => {
    const replayCharacterUpload = (status: number, name: string) =>
      session.replay({
        'POST /v1/videos/characters': {
          status,
          headers: { 'content-type': 'application/json' },
          body: fixture(name),
        },
      });

    it('uploads the clip with its name as multipart and reads the character', async () => {
      upstream = await replayCharacterUpload(200, 'character-created.body');
      const created = await compatVideoAdapter.createCharacter!(
        { name: 'Captain Otter', bytes: CLIP, contentType: 'video/mp4' },
        'delta-2',
        context(),
      );
      expect(created).toEqual({
        id: 'char_5b2e9d0c1a7f4e3b',
        name: 'Captain Otter',
        createdAt: 1764000300,
        warnings: [],
      });
      const [sent] = upstream.requests;
      expect(sent.headers.authorization).toBe('Bearer compat-secret-1');
      const form = await new Response(sent.body, {
        headers: { 'content-type': String(sent.headers['content-type']) },
      }).formData();
      expect(form.get('name')).toBe('Captain Otter');
      const video = form.get('video') as File;
      expect(video.type).toBe('video/mp4');
      expect(Buffer.from(await video.arrayBuffer()).equals(CLIP)).toBe(true);
    });

    it('tells the client the time window was not sent: the wire takes the whole clip', async () => {
      upstream = await replayCharacterUpload(200, 'character-created.body');
      const created = await compatVideoAdapter.createCharacter!(
        { name: 'Captain Otter', bytes: CLIP, contentType: 'video/mp4', window: { start: 1, end: 3 } },
        'delta-2',
        context(),
      );
      expect(created.warnings).toEqual([
        'character_timestamps 1-3 was not sent: the upstream takes the whole clip and no time window',
      ]);
    });

    it('throws the classified failure of a refused upload', async () => {
      upstream = await replayCharacterUpload(400, 'error-invalid-request.body');
      const error = await upstreamFailureOf(
        compatVideoAdapter.createCharacter!(
          { name: 'x', bytes: CLIP, contentType: 'video/mp4' },
          'delta-2',
          context(),
        ),
      );
      expect(error.failure).toMatchObject({ kind: 'bad_request', httpStatus: 400 });
    });
  });
});
