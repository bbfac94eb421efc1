import { PNG } from 'pngjs';
import { GatewayError } from '@gateway/errors';
import { VIDEO_TASK_ID_PREFIXES } from '../../modality/videos/video-object';
import { BETA_ROUTE_TASK_PREFIX } from './beta-submission.service';
import { inBetaVideoTerms, isBetaVideoSubmission, toBetaVideoDraft } from './beta-video-submission';

const FIRST = 'https://img.example/first.png';
const LAST = 'https://img.example/last.png';

describe('a /bt video submission', () => {
  it('is told apart from an image one by its req_key', () => {
    expect(isBetaVideoSubmission({ req_key: 'beta_t2v_v30' })).toBe(true);
    expect(isBetaVideoSubmission({ req_key: 'beta_t2i_v40' })).toBe(false);
    expect(isBetaVideoSubmission({ req_key: 'beta_ti2v_v30_pro' })).toBe(false);
    expect(isBetaVideoSubmission('beta_t2v_v30')).toBe(false);
  });

  it('reads the key, frames, ratio, seed and frames into the platform request', () => {
    const draft = toBetaVideoDraft({
      req_key: 'beta_i2v_first_tail_v30_1080',
      prompt: 'a kite',
      image_urls: [FIRST, LAST],
      frames: 241,
      aspect_ratio: '9:16',
      seed: 7,
      logo_info: { add_logo: true },
    });
    expect(draft).toEqual({
      modelName: 'beta-video-3.0',
      fields: {
        style: 'official',
        prompt: 'a kite',
        seconds: 10,
        resolution: '1080P',
        aspectRatio: '9:16',
        images: [
          { role: 'first_frame', url: FIRST, source: 'image_urls' },
          { role: 'last_frame', url: LAST, source: 'image_urls' },
        ],
        clips: [],
        subjects: [],
        metadata: { seed: 7 },
        extras: { logo_info: { add_logo: true } },
      },
    });
  });

  it('keeps bare Base64 frames as data: URIs', () => {
    const base64 = PNG.sync.write(new PNG({ width: 2, height: 2 })).toString('base64');
    const draft = toBetaVideoDraft({ req_key: 'beta_vgfm_i2v_l20', binary_data_base64: [base64] });
    expect(draft.modelName).toBe('beta-video-2.0');
    expect(draft.fields.images).toEqual([
      { role: 'first_frame', url: `data:image/png;base64,${base64}`, source: 'binary_data_base64' },
    ]);
    expect(draft.fields.seconds).toBeUndefined();
  });

  it.each([
    [{ req_key: 'beta_t2v_v30', prompt: 'x', image_urls: [FIRST] }, 'image_urls', 'takes 0 images'],
    [{ req_key: 'beta_i2v_first_v30' }, 'image_urls', 'takes 1 image'],
    [
      { req_key: 'beta_i2v_first_v30', binary_data_base64: ['bm90IGFuIGltYWdl', 'eA=='] },
      'binary_data_base64',
      'takes 1 image',
    ],
    [{ req_key: 'beta_t2v_v30', prompt: 'x', frames: 120 }, 'frames', '24 × seconds + 1'],
    [{ req_key: 'beta_t2v_v30', prompt: 'x', frames: '121' }, 'frames', 'integer'],
    [
      { req_key: 'beta_i2v_first_v30', image_urls: [FIRST], binary_data_base64: ['eA=='] },
      'image_urls',
      'together',
    ],
    [
      { req_key: 'beta_i2v_first_v30', binary_data_base64: ['bm90IGFuIGltYWdl'] },
      'binary_data_base64[0]',
      'PNG, JPEG or WebP',
    ],
  ])('refuses %j on %s', (body, param, words) => {
    let refusal: unknown;
    try {
      toBetaVideoDraft(body);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({ code: 'invalid_request', param });
    expect((refusal as GatewayError).message).toContain(words);
  });

  it('names the rules’ refusals as the /bt body writes the fields', () => {
    const renamed = inBetaVideoTerms(
      GatewayError.invalidRequest('duration must be one of 5, 10, 15', 'duration'),
    );
    expect(renamed).toMatchObject({ param: 'frames', message: expect.stringContaining('24 × seconds + 1') });
    expect(inBetaVideoTerms(GatewayError.invalidRequest('bad seed', 'metadata.seed'))).toMatchObject({
      param: 'seed',
    });
    const untouched = GatewayError.invalidRequest('prompt is required', 'prompt');
    expect(inBetaVideoTerms(untouched)).toBe(untouched);
  });

  it('keeps /bt ids among the ids the video routes serve', () => {
    expect(VIDEO_TASK_ID_PREFIXES).toContain(BETA_ROUTE_TASK_PREFIX);
  });
});
