import { closestImg2Size, IMG_2_PRESETS, IMG_2_PRO_PRESETS, isImg2NativeSize } from './img-2-size.util';

describe('isImg2NativeSize', () => {
  it.each([
    [1024, 1024, true],
    [3840, 2160, true], // area exactly 8 294 400
    [2880, 2880, true],
    [1280, 720, true],
    [1920, 1080, false], // 1080 is not a multiple of 16
    [3840, 2880, false], // area above 8 294 400
    [4096, 1024, false], // long side above 3840
    [3072, 1008, false], // long:short above 3:1
    [800, 800, false], // area below 655 360
  ])('%ix%i → %s', (width, height, native) => {
    expect(isImg2NativeSize({ width, height })).toBe(native);
  });

  it('finds exactly the presets upstreams.md §2.3 names non-native', () => {
    const nonNative = Object.entries(IMG_2_PRO_PRESETS)
      .filter(([, target]) => !isImg2NativeSize(target))
      .map(([name]) => name);
    expect(nonNative).toEqual(['16:9', '9:16', '4:3(4K)', '3:2(4K)', '2:3(4K)']);
    expect(Object.keys(IMG_2_PRESETS)).toEqual(['1:1', '4:3', '3:2', '2:3', '16:9', '9:16']);
  });
});

describe('closestImg2Size', () => {
  it.each([
    [1920, 1080, 1792, 1008],
    [1080, 1920, 1008, 1792],
    [3840, 2880, 3264, 2448],
    [3840, 2560, 3504, 2336],
    [2560, 3840, 2336, 3504],
    [256, 256, 816, 816], // scaled up to the minimum area
    [6000, 1000, 2976, 992], // clamped to 3:1 first
  ])('sends %ix%i as %ix%i', (width, height, sentWidth, sentHeight) => {
    expect(closestImg2Size({ width, height })).toEqual({ width: sentWidth, height: sentHeight });
  });

  // 3%: a 3:1 target at the minimum area gets 1408x480, the nearest inside its box.
  it('gives a valid size whose ratio is within 3% of the (3:1-clamped) target for any target', () => {
    for (let width = 100; width <= 6000; width += 370) {
      for (let height = 100; height <= 6000; height += 410) {
        const sent = closestImg2Size({ width, height });
        expect(sent && isImg2NativeSize(sent)).toBe(true);
        const targetRatio = Math.min(3, Math.max(1 / 3, width / height));
        expect(Math.abs(Math.log(sent!.width / sent!.height / targetRatio))).toBeLessThan(0.03);
      }
    }
  });

  it('has nothing to offer for a target without area', () => {
    expect(closestImg2Size({ width: 0, height: 1024 })).toBeUndefined();
  });
});
