import { GatewayError } from '@gateway/errors';
import { toBetaSubmission } from './beta-submission';

const refusalOf = (body: unknown): GatewayError => {
  try {
    toBetaSubmission(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('accepted');
};

describe('toBetaSubmission', () => {
  it('names the model of the req_key and passes every other field as sent, unknown ones included', () => {
    expect(
      toBetaSubmission({
        req_key: 'beta_t2i_v45',
        prompt: 'a kite',
        image_urls: ['https://images.test/a.png'],
        width: 1536,
        height: 1024,
        seed: 7,
        min_ratio: 0.5,
      }),
    ).toEqual({
      model: 'beta-4.5',
      taskRequest: {
        submission: {
          prompt: 'a kite',
          image_urls: ['https://images.test/a.png'],
          width: 1536,
          height: 1024,
          seed: 7,
          min_ratio: 0.5,
        },
        resultOptions: {},
      },
      tier: '1k',
    });
  });

  it.each([
    ['1k', 1024 * 1024],
    ['2k', 2048 * 2048],
    ['4k', 4096 * 4096],
  ])('sends resolution %s as the size area %i and prices it at that tier', (resolution, size) => {
    const { taskRequest, tier } = toBetaSubmission({ req_key: 'beta_t2i_v40', prompt: 'a kite', resolution });
    expect(taskRequest.submission).toEqual({ prompt: 'a kite', size });
    expect(tier).toBe(resolution);
  });

  it('prices the default area at 2k', () => {
    expect(toBetaSubmission({ req_key: 'beta_t2i_v40', prompt: 'a kite' }).tier).toBe('2k');
  });

  it('keeps the logo and provenance options of req_json for the result fetch, and nothing else', () => {
    const reqJson = JSON.stringify({
      return_url: true,
      logo_info: { add_logo: false },
      aigc_meta: { producer_id: 'p' },
    });
    expect(
      toBetaSubmission({ req_key: 'beta_t2i_v40', prompt: 'a kite', req_json: reqJson }).taskRequest,
    ).toEqual({
      submission: { prompt: 'a kite' },
      resultOptions: { logo_info: { add_logo: false }, aigc_meta: { producer_id: 'p' } },
    });
  });

  it.each([
    [
      {
        req_key: 'beta_t2i_v40',
        prompt: 'k',
        image_urls: ['https://a.test/a.png'],
        binary_data_base64: ['AAAA'],
      },
      'image_urls',
    ],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', height: 1024 }, 'width'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', resolution: '2k', size: 1048576 }, 'resolution'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', resolution: '8k' }, 'resolution'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', req_json: '{"logo_info":true}' }, 'req_json'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', req_json: 'not json' }, 'req_json'],
    [{ req_key: 'beta_t2i_v40', prompt: 'x'.repeat(801) }, 'prompt'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', size: 512 * 512 }, 'size'],
    [[{ req_key: 'beta_t2i_v40' }], '(body)'],
    // What the task row's jsonb request cannot hold, wherever it is.
    [{ req_key: 'beta_t2i_v40', prompt: 'a\u0000b' }, 'prompt'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', image_urls: ['https://a.test/\ud800'] }, 'image_urls[0]'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', extra: { note: '\u0000' } }, 'extra.note'],
    [{ req_key: 'beta_t2i_v40', prompt: 'k', req_json: '{"logo_info":{"text":"\\u0000"}}' }, 'req_json'],
  ])('refuses %j, naming %s', (body, param) => {
    const error = refusalOf(body);
    expect(error.code).toBe('invalid_request');
    expect(error.param).toBe(param);
  });

  it('refuses a req_key it does not serve as an unknown model, naming the ones it serves', () => {
    const error = refusalOf({ req_key: 'beta_t2v_v30', prompt: 'a kite' });
    expect(error.code).toBe('model_not_found');
    expect(error.message).toContain('beta_t2i_v40 (beta-4.0), beta_t2i_v45 (beta-4.5)');
  });
});
