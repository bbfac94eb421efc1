import { upstreamModelOf } from './prisma-task-channel.resolver';

describe('upstreamModelOf', () => {
  it('maps a model the channel renames', () => {
    const channel = { models: [{ model: 'gamma-2' }, { model: 'gamma-3', upstreamModel: 'g3-preview' }] };
    expect(upstreamModelOf(channel, 'gamma-3')).toBe('g3-preview');
  });

  it('keeps the public name when the channel offers it unmapped, or the mapping is malformed', () => {
    expect(upstreamModelOf({ models: [{ model: 'gamma-2' }] }, 'gamma-2')).toBe('gamma-2');
    expect(
      upstreamModelOf({ models: [null, 'gamma-2', { model: 'gamma-2', upstreamModel: 7 }] }, 'gamma-2'),
    ).toBe('gamma-2');
    expect(upstreamModelOf({ models: {} }, 'gamma-2')).toBe('gamma-2');
  });
});
