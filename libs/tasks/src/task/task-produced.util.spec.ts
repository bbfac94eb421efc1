import type { TaskCompleted } from '@gateway/providers-core';
import { toVideoTaskPriceSnapshot } from './task-price-snapshot';
import { producedByTask } from './task-produced.util';

const videoSnapshot = toVideoTaskPriceSnapshot({
  resolution: '1080p',
  perCallMicros: 0n,
  perSecondMicros: 10n,
  heldSeconds: 8,
});

function completed(usage?: TaskCompleted['usage'], outputs = 1): TaskCompleted {
  return {
    state: 'completed',
    outputs: Array.from({ length: outputs }, (_, index) => ({ url: `http://upstream.test/${index}` })),
    ...(usage ? { usage } : {}),
    warnings: [],
  };
}

describe('producedByTask', () => {
  it('counts a video in whole seconds as reported, rounded up', () => {
    const video = { kind: 'video', priceSnapshot: videoSnapshot };
    expect(producedByTask(video, completed({ video: { seconds: 4.01 } }))).toEqual({ mediaSeconds: 5 });
    expect(producedByTask(video, completed({ video: { seconds: 12 } }))).toEqual({ mediaSeconds: 12 });
  });

  it.each([[undefined], [0], [-3], [Number.NaN]])(
    'counts the held seconds when the video seconds reported are %p',
    (seconds) => {
      const usage = seconds === undefined ? undefined : { video: { seconds } };
      expect(producedByTask({ kind: 'video', priceSnapshot: videoSnapshot }, completed(usage))).toEqual({
        mediaSeconds: 8,
      });
    },
  );

  it('counts music by the audio seconds reported, and nothing when neither report nor hold says', () => {
    expect(
      producedByTask({ kind: 'music', priceSnapshot: null }, completed({ audio: { seconds: 61.5 } })),
    ).toEqual({ mediaSeconds: 62 });
    expect(producedByTask({ kind: 'music', priceSnapshot: null }, completed())).toEqual({});
  });

  it('keeps the tokens reported for a video beside its seconds, storable', () => {
    const reported = completed({
      video: { seconds: 5 },
      tokens: { inputTokens: 0, outputTokens: 108_900 },
    });
    expect(producedByTask({ kind: 'video', priceSnapshot: videoSnapshot }, reported)).toEqual({
      mediaSeconds: 5,
      inputTokens: 0,
      outputTokens: 108_900,
    });
    const wild = completed({ tokens: { inputTokens: -4, outputTokens: 1e12 } });
    expect(producedByTask({ kind: 'video', priceSnapshot: videoSnapshot }, wild)).toMatchObject({
      inputTokens: 0,
      outputTokens: 2_147_483_647,
    });
  });

  it('keeps a report beyond what the column holds storable', () => {
    const huge = completed({ video: { seconds: 1e12 } });
    expect(producedByTask({ kind: 'video', priceSnapshot: videoSnapshot }, huge)).toEqual({
      mediaSeconds: 2_147_483_647,
    });
  });

  it('counts images for any other kind: as reported, else one per output', () => {
    expect(
      producedByTask({ kind: 'image', priceSnapshot: null }, completed({ images: { count: 3 } }, 1)),
    ).toEqual({
      imageCount: 3,
    });
    expect(producedByTask({ kind: 'image', priceSnapshot: null }, completed(undefined, 2))).toEqual({
      imageCount: 2,
    });
  });
});
