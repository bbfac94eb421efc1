import {
  channelModels,
  httpUrl,
  jsonObject,
  listOfNames,
  optionalInteger,
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
