import { validateBody } from '../validation/validate-body.util';
import { ImageGenerationRequestDto } from './image-generation-request.dto';

function problemsOf(body: Record<string, unknown>): string[] {
  const result = validateBody(ImageGenerationRequestDto, { model: 'draw-3', prompt: 'A fox', ...body });
  return result.ok ? [] : result.problems.map((problem) => problem.field);
}

describe('ImageGenerationRequestDto', () => {
  it('accepts the OpenAI-style body, nulls for optional fields, and unknown fields', () => {
    expect(
      problemsOf({
        n: 0,
        size: '1024x1024',
        quality: null,
        response_format: 'base64',
        watermark: false,
        image: ['https://example.com/a.png'],
        ratio: '16:9',
        resolution: '2k',
        user: 'someone',
      }),
    ).toEqual([]);
  });

  it('requires model and prompt', () => {
    expect(validateBody(ImageGenerationRequestDto, {}).ok).toBe(false);
    expect(problemsOf({ model: undefined })).toEqual(['model']);
    expect(problemsOf({ prompt: undefined })).toEqual(['prompt']);
  });

  it.each([
    [{ n: -1 }, 'n'],
    [{ n: 2.5 }, 'n'],
    [{ n: 101 }, 'n'],
    [{ response_format: 'png' }, 'response_format'],
    [{ watermark: 'no' }, 'watermark'],
    [{ image: 42 }, 'image'],
    [{ image: ['ok', ''] }, 'image[1]'],
    [{ image: Array.from({ length: 17 }, () => 'x') }, 'image'],
    [{ size: 'x'.repeat(257) }, 'size'],
  ])('refuses %j, naming %s', (body, field) => {
    expect(problemsOf(body)).toEqual([field]);
  });
});
