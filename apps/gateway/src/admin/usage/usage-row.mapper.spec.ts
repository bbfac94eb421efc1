import { toUsageRow } from './usage-row.mapper';

describe('toUsageRow', () => {
  it('turns counts into numbers, keeps the cost string exact and names the group', () => {
    expect(
      toUsageRow(
        {
          day: '2026-03-01',
          model: 'm',
          requests: '3',
          errors: '1',
          inputTokens: '10',
          outputTokens: '20',
          images: '2',
          mediaSeconds: '8',
          costMicros: '9007199254740993',
        },
        ['day', 'model'],
      ),
    ).toEqual({
      group: '2026-03-01,m',
      day: '2026-03-01',
      model: 'm',
      requests: 3,
      errors: 1,
      inputTokens: 10,
      outputTokens: 20,
      images: 2,
      mediaSeconds: 8,
      costMicros: '9007199254740993',
    });
  });
});
