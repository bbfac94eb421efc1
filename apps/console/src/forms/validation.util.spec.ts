import {
  channelModels,
  httpUrl,
  jsonObject,
  listOfNames,
  optionalInteger,
  pollsPerSecond,
  requiredName,
} from './validation.util';

describe('console form checks', () => {
  it('requires a name of at most 200 characters', () => {
    expect(requiredName('  ', 'Name')).toBe('Name is required.');
    expect(requiredName('x'.repeat(201), 'Name')).toMatch(/at most 200/);
    expect(requiredName('ok', 'Name')).toBeUndefined();
  });

  it('accepts only http(s) URLs', () => {
    expect(httpUrl('https://upstream.example/v1')).toBeUndefined();
    expect(httpUrl('http://127.0.0.1:4010')).toBeUndefined();
    expect(httpUrl('ftp://upstream.example')).toMatch(/http/);
    expect(httpUrl('upstream.example')).toMatch(/full URL/);
  });

  it('reads optional integers within bounds', () => {
    expect(optionalInteger('', 'Priority', { min: 0 })).toEqual({});
    expect(optionalInteger('12', 'Priority', { min: 0 })).toEqual({ value: 12 });
    expect(optionalInteger('1.5', 'Priority', { min: 0 }).problem).toMatch(/whole number/);
    expect(optionalInteger('0', 'Weight', { min: 1 }).problem).toMatch(/between 1 and/);
    expect(optionalInteger('2147483648', 'Weight', { min: 1 }).problem).toMatch(/2147483647/);
  });

  it('reads a poll-rate ceiling: a decimal within the API bounds, or none', () => {
    expect(pollsPerSecond('')).toEqual({ value: null });
    expect(pollsPerSecond(' 2.5 ')).toEqual({ value: 2.5 });
    expect(pollsPerSecond('.5')).toEqual({ value: 0.5 });
    expect(pollsPerSecond('10000')).toEqual({ value: 10_000 });
    expect(pollsPerSecond('0.01')).toEqual({ value: 0.01 });
    for (const refused of ['0', '0.001', '10000.5', '1e9'])
      expect(pollsPerSecond(refused).problem).toMatch(/between 0.01 and 10000|a number/);
    for (const refused of ['-1', 'abc', '1,5', 'Infinity', 'NaN', '0x10', '1e2'])
      expect(pollsPerSecond(refused).problem).toMatch(/must be a number/);
  });

  it('reads a JSON object and nothing else', () => {
    expect(jsonObject('')).toEqual({ value: {} });
    expect(jsonObject('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(jsonObject('[1]').problem).toMatch(/JSON object/);
    expect(jsonObject('null').problem).toMatch(/JSON object/);
    expect(jsonObject('{').problem).toMatch(/Not valid JSON/);
  });

  it('splits lists on commas and lines, dropping blanks and repeats', () => {
    expect(listOfNames('a, b\n c,,a')).toEqual(['a', 'b', 'c']);
  });

  it('reads channel models with their optional upstream names', () => {
    expect(channelModels('kappa-2.0-flash\nchat=chat-fast')).toEqual({
      value: [{ model: 'kappa-2.0-flash' }, { model: 'chat', upstreamModel: 'chat-fast' }],
    });
    expect(channelModels('\n ').problem).toMatch(/at least one/);
    expect(channelModels('a\na').problem).toMatch(/twice/);
    expect(channelModels('a=b=c').problem).toMatch(/Cannot read/);
    expect(channelModels('a=').problem).toMatch(/Cannot read/);
  });
});
