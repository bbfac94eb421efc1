import { toUsageRow } from './usage-row.mapper';

describe('toUsageRow', () => {
  it('turns counts into numbers and keeps the cost string exact', () => {
    expect(
      toUsageRow({
        group: 'm',
        requests: 3n,
        input_tokens: 10n,
        output_tokens: 20n,
        cost_micros: '9007199254740993',
      }),
    ).toEqual({ group: 'm', requests: 3, inputTokens: 10, outputTokens: 20, costMicros: '9007199254740993' });
  });
});
