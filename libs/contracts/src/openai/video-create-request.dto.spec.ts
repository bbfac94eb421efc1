import { validateBody } from '../validation/validate-body.util';
import { UnifiedVideoCreateRequestDto } from './unified-video-request.dto';
import { VideoCreateRequestDto, VideoRemixRequestDto } from './video-create-request.dto';

const problemsOf = (dto: Parameters<typeof validateBody>[0], body: unknown) => {
  const result = validateBody(dto, body);
  return result.ok ? [] : result.problems.map((problem) => problem.message);
};

describe('video request bodies', () => {
  it('accepts the OpenAI-style fields, seconds as a string or a number, unknown fields kept', () => {
    const body = {
      model: 'delta-2',
      prompt: 'A boat',
      seconds: '8',
      duration: 4,
      size: '1280x720',
      input_reference: { image_url: 'https://example.test/a.png' },
      metadata: { output_config: { resolution: '720P' } },
      watermark: false,
    };
    const result = validateBody(VideoCreateRequestDto, body);
    expect(result.ok).toBe(true);
    expect(result.ok && (result.value as unknown as Record<string, unknown>).watermark).toBe(false);
  });

  it.each([
    [{ prompt: 'A boat' }, 'model is required'],
    [{ model: 'delta-2' }, 'prompt is required'],
    [{ model: 'delta-2', prompt: '' }, 'prompt must not be empty'],
    [{ model: 'delta-2', prompt: 'a\u0000b' }, 'prompt must not contain NUL'],
    [{ model: 'delta-2', prompt: 'x', seconds: '4.5' }, 'seconds must be a whole number of seconds'],
    [{ model: 'delta-2', prompt: 'x', seconds: 0 }, 'seconds must be between 1 and 600'],
    [{ model: 'delta-2', prompt: 'x', seconds: '601' }, 'seconds must be between 1 and 600'],
    [{ model: 'delta-2', prompt: 'x', duration: true }, 'duration must be a whole number of seconds'],
    [{ model: 'delta-2', prompt: 'x', images: 'https://a.test/x.png' }, 'images must be an array'],
    [{ model: 'delta-2', prompt: 'x', input_reference: 7 }, 'input_reference must be a string or an object'],
    [{ model: 'delta-2', prompt: 'x', input_reference: {} }, 'input_reference must have image_url'],
    [{ model: 'delta-2', prompt: 'x', metadata: [] }, 'metadata must be an object'],
  ])('refuses %j: %s', (body, problem) => {
    expect(problemsOf(VideoCreateRequestDto, body).join('; ')).toContain(problem);
  });

  it('checks subjects of the unified request and requires a prompt on remix', () => {
    expect(
      problemsOf(UnifiedVideoCreateRequestDto, {
        model: 'delta-2',
        prompt: '@cat runs',
        subjects: [{ id: 'cat', images: [] }],
      }).join(';'),
    ).toContain('subjects[0].images must not be empty');
    expect(problemsOf(VideoRemixRequestDto, {}).join(';')).toContain('prompt is required');
  });
});
