import assert from 'node:assert/strict';
import { test } from 'node:test';
import { niceCeiling, plotDataFromFigures, renderLatencyThroughputSvg } from './svg-plot.mjs';

test('axis maxima are 1, 2 or 5 times a power of ten at or above the value', () => {
  assert.equal(niceCeiling(0.37), 0.5);
  assert.equal(niceCeiling(1.2), 2);
  assert.equal(niceCeiling(2), 2);
  assert.equal(niceCeiling(23000), 50000);
  assert.equal(niceCeiling(0), 1);
});

test('one bar per measured value, scaled to its panel, with escaped labels', () => {
  const svg = renderLatencyThroughputSvg({
    targets: ['direct', 'gateway'],
    throughput: { direct: { native: 20000, openai: 18000 }, gateway: { native: 5000 } },
    p50Ms: { direct: { native: 0.1, openai: 0.1 }, gateway: { native: 0.4, openai: 0.5 } },
    caption: 'a <test> & more',
  });
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'));
  assert.equal((svg.match(/<rect x="[\d.]+" y="[\d.]+" width/g) ?? []).length, 7 + 2); // 7 bars + 2 legend swatches
  assert.ok(svg.includes('a &#60;test&#62; &#38; more'));
  // The tallest throughput bar (20000 on a 20000 axis) fills the 190-pixel plot height.
  assert.match(
    svg,
    /height="190\.0" fill="#3b6ea8"><title>direct, native generateContent: 20,000 requests\/s/,
  );
});

test('plot data takes medians from the derived figures and keeps the target order', () => {
  const figures = {
    'throughput/native': {
      byTarget: { gateway: { aggregate: { rps: 10 } }, direct: { aggregate: { rps: 40 } } },
    },
    'latency/openai': { byTarget: { direct: { aggregate: { p50Us: 120 } } } },
  };
  const data = plotDataFromFigures(figures, ['direct', 'proxy', 'gateway']);
  assert.deepEqual(data.targets, ['direct', 'gateway']);
  assert.deepEqual(data.throughput, { gateway: { native: 10 }, direct: { native: 40 } });
  assert.deepEqual(data.p50Ms, { direct: { openai: 0.12 } });
});
