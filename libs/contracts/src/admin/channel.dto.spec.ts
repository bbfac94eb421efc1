import { FieldProblem, validateBody } from '../validation/validate-body.util';
import { CreateChannelDto, UpdateChannelDto } from './channel.dto';
import { toMaskedSecret } from './masked-secret.util';

const STRICT = { refuseUnknownFields: true };

function problemsOf(
  dtoClass: typeof CreateChannelDto | typeof UpdateChannelDto,
  body: unknown,
): FieldProblem[] {
  const result = validateBody<object>(dtoClass, body, STRICT);
  if (result.ok) throw new Error('expected the body to be refused');
  return result.problems;
}

const minimal = {
  type: 'kappa',
  name: 'kappa-main',
  baseUrl: 'http://upstream-sim:4010/kappa',
  secret: 'sk-test-abcd',
  models: [{ model: 'kappa-2.0-flash' }],
};

describe('CreateChannelDto', () => {
  it('accepts the minimal channel and applies the defaults', () => {
    const result = validateBody(CreateChannelDto, minimal, STRICT);
    expect(result.ok && result.value).toMatchObject({
      ...minimal,
      settings: {},
      priority: 0,
      weight: 1,
      status: 'enabled',
    });
  });

  it('accepts a full channel with model mapping', () => {
    const full = {
      ...minimal,
      baseUrl: 'https://relay.example.com/v1',
      models: [{ model: 'kappa-2.0-flash', upstreamModel: 'kappa-2.0-flash-001' }, { model: 'img-1' }],
      priority: -5,
      weight: 10,
      status: 'disabled',
    };
    const result = validateBody(CreateChannelDto, full, STRICT);
    expect(result.ok && result.value).toMatchObject(full);
  });

  it.each([
    [{ baseUrl: 'ftp://files.example' }, 'baseUrl', 'baseUrl must be an http or https URL'],
    [{ baseUrl: 'upstream-sim:4010' }, 'baseUrl', 'baseUrl must be an http or https URL'],
    [{ models: [] }, 'models', 'models must not be empty'],
    [{ models: [{ upstreamModel: 'x' }] }, 'models[0].model', 'models[0].model is required'],
    [{ weight: 0 }, 'weight', 'weight must be between 1 and 2147483647'],
    [{ weight: 1.5 }, 'weight', 'weight must be an integer'],
    [{ priority: '1' }, 'priority', 'priority must be an integer'],
    [{ status: 'paused' }, 'status', 'status must be one of enabled, disabled'],
    [{ secret: '' }, 'secret', 'secret must not be empty'],
    [{ type: 5 }, 'type', 'type must be a string'],
    [{ settings: ['region'] }, 'settings', 'settings must be an object'],
    [{ name: 'n'.repeat(201) }, 'name', 'name must be at most 200 characters long'],
    [{ pollsPerSecond: 0 }, 'pollsPerSecond', 'pollsPerSecond must be between 0.01 and 10000'],
    [{ pollsPerSecond: -2 }, 'pollsPerSecond', 'pollsPerSecond must be between 0.01 and 10000'],
    [{ pollsPerSecond: 1e9 }, 'pollsPerSecond', 'pollsPerSecond must be between 0.01 and 10000'],
    [{ pollsPerSecond: '20' }, 'pollsPerSecond', 'pollsPerSecond must be a number'],
  ])('refuses %j at %s', (fields, field, message) => {
    expect(problemsOf(CreateChannelDto, { ...minimal, ...fields })).toEqual([{ field, message }]);
  });

  it('takes a poll-rate ceiling, fractional or none', () => {
    for (const pollsPerSecond of [0.5, 20, null]) {
      const result = validateBody(CreateChannelDto, { ...minimal, pollsPerSecond }, STRICT);
      expect(result.ok && result.value.pollsPerSecond).toBe(pollsPerSecond);
    }
  });

  it('names every missing field', () => {
    expect(problemsOf(CreateChannelDto, {}).map((problem) => problem.message)).toEqual([
      'type is required',
      'name is required',
      'baseUrl is required',
      'secret is required',
      'models is required',
    ]);
  });

  it('refuses a model offered twice', () => {
    const models = [{ model: 'a' }, { model: 'b' }, { model: 'a', upstreamModel: 'a-2' }];
    expect(problemsOf(CreateChannelDto, { ...minimal, models })).toEqual([
      { field: 'models[2].model', message: 'models[2].model repeats an earlier entry' },
    ]);
  });

  it('refuses unknown fields when the caller asks, and keeps them otherwise', () => {
    expect(problemsOf(CreateChannelDto, { ...minimal, secretTail: 'abcd' })).toEqual([
      { field: 'secretTail', message: 'secretTail is not a known field' },
    ]);
    const lenient = validateBody(CreateChannelDto, { ...minimal, note: 'x' });
    expect(lenient.ok && lenient.value).toMatchObject({ note: 'x' });
  });
});

describe('UpdateChannelDto', () => {
  it('accepts an empty update without inventing defaults', () => {
    const result = validateBody(UpdateChannelDto, {}, STRICT);
    expect(result.ok && result.value.weight).toBeUndefined();
  });

  it('removes the poll-rate ceiling with null', () => {
    const result = validateBody(UpdateChannelDto, { pollsPerSecond: null }, STRICT);
    expect(result.ok && result.value.pollsPerSecond).toBeNull();
  });

  it('accepts a secret rotation alone', () => {
    const result = validateBody(UpdateChannelDto, { secret: 'sk-new-wxyz' }, STRICT);
    expect(result.ok && result.value.secret).toBe('sk-new-wxyz');
  });

  it.each([
    [{ name: null }, 'name', 'name must be a string'],
    [{ models: [] }, 'models', 'models must not be empty'],
    [{ weight: 0 }, 'weight', 'weight must be between 1 and 2147483647'],
    [{ baseUrl: 'file:///etc/passwd' }, 'baseUrl', 'baseUrl must be an http or https URL'],
    [{ settings: 'region=north' }, 'settings', 'settings must be an object'],
    [{ pollsPerSecond: Number.NaN }, 'pollsPerSecond', 'pollsPerSecond must be a number'],
    [{ pollsPerSecond: 0.001 }, 'pollsPerSecond', 'pollsPerSecond must be between 0.01 and 10000'],
  ])('refuses %j at %s', (fields, field, message) => {
    expect(problemsOf(UpdateChannelDto, fields)).toEqual([{ field, message }]);
  });
});

describe('toMaskedSecret', () => {
  it('shows only the tail behind a mask', () => {
    expect(toMaskedSecret('abcd')).toBe('••••abcd');
  });
});
