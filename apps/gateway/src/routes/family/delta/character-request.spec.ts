import { GatewayError } from '@gateway/errors';
import { characterRequestOf } from './character-request';

const CLIP = 'https://clips.example/actor.mp4';

function refusalOf(body: unknown): GatewayError {
  try {
    characterRequestOf(body);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('characterRequestOf', () => {
  it('reads a full body, the window as "start,end"', () => {
    expect(
      characterRequestOf({
        model: 'delta-2-pro',
        name: '  Captain  ',
        character_url: CLIP,
        character_timestamps: '1.5, 4',
      }),
    ).toEqual({ model: 'delta-2-pro', name: 'Captain', url: CLIP, window: { start: 1.5, end: 4 } });
  });

  it('defaults the model and the name, and takes the window as [start, end]', () => {
    expect(characterRequestOf({ character_url: CLIP, character_timestamps: [0, 10] })).toEqual({
      model: 'delta-2',
      name: 'character',
      url: CLIP,
      window: { start: 0, end: 10 },
    });
  });

  it('accepts a window of exactly one second despite binary floating point', () => {
    expect(characterRequestOf({ character_url: CLIP, character_timestamps: '0.7,1.7' }).window).toEqual({
      start: 0.7,
      end: 1.7,
    });
  });

  it.each([
    ['no window', undefined],
    ['one number', '3'],
    ['three numbers', '1,2,3'],
    ['negative seconds', '-1,2'],
    ['words', 'start,end'],
    ['an exponent', '1e1,2e1'],
    ['an array of strings', ['1', '3']],
    ['an array of three', [1, 2, 3]],
    ['an object', { start: 1, end: 3 }],
    ['a window shorter than a second', '2,2.5'],
    ['a window longer than ten seconds', [0, 10.5]],
    ['a window backwards', '5,2'],
  ])('refuses %s as character_timestamps', (_, character_timestamps) => {
    const refusal = refusalOf({ character_url: CLIP, character_timestamps });
    expect(refusal.httpStatus).toBe(400);
    expect(refusal.param).toBe('character_timestamps');
  });

  it.each([
    ['no URL', undefined],
    ['a relative URL', '/clip.mp4'],
    ['another scheme', 'file:///etc/passwd'],
    ['a data URI', 'data:video/mp4;base64,AAAA'],
    ['a URL of 5000 characters', `https://clips.example/${'a'.repeat(5000)}`],
    ['a number', 42],
  ])('refuses %s as character_url', (_, character_url) => {
    expect(refusalOf({ character_url, character_timestamps: '1,3' }).param).toBe('character_url');
  });

  it.each([
    ['a model of another family', { model: 'epsilon_3_1' }, 'model'],
    ['a model that is no string', { model: 2 }, 'model'],
    ['an empty name', { name: '   ' }, 'name'],
    ['a name with a line break', { name: 'a\nb' }, 'name'],
    ['a name of 81 characters', { name: 'n'.repeat(81) }, 'name'],
    ['a name with an unpaired surrogate', { name: 'Cap\ud800' }, 'name'],
    ['a model with an unpaired surrogate', { model: 'delta-\udfff' }, 'model'],
  ])('refuses %s', (_, extra, param) => {
    expect(refusalOf({ character_url: CLIP, character_timestamps: '1,3', ...extra }).param).toBe(param);
  });

  it.each([null, [], 'text', 3])('refuses the body %p', (body) => {
    expect(refusalOf(body).param).toBe('(body)');
  });
});
