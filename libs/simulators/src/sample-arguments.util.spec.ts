import { sampleArgumentsFor } from './sample-arguments.util';

describe('sampleArgumentsFor', () => {
  it('fills required properties by type, in either spelling of type names', () => {
    expect(
      sampleArgumentsFor({
        type: 'OBJECT',
        properties: {
          city: { type: 'STRING' },
          days: { type: 'integer' },
          metric: { type: 'boolean' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
          tags: { type: 'array', items: { type: 'string' } },
          note: { type: ['string', 'null'] },
          optional: { type: 'string' },
        },
        required: ['city', 'days', 'metric', 'unit', 'where', 'tags', 'note'],
      }),
    ).toEqual({
      city: 'sample',
      days: 1,
      metric: true,
      unit: 'celsius',
      where: { lat: 1 },
      tags: ['sample'],
      note: 'sample',
    });
  });

  it('returns no arguments for a missing schema', () => {
    expect(sampleArgumentsFor(undefined)).toEqual({});
  });
});
