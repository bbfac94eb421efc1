// latency-throughput.svg, written by hand: two panels of grouped bars, one group per target and one bar
// per route family: 64-connection non-stream throughput (req/s) and 1-connection non-stream p50 (ms).

const FAMILY_COLORS = { native: '#3b6ea8', openai: '#e08a2c' };
const FAMILY_NAMES = { native: 'native generateContent', openai: 'OpenAI-style chat' };
const PANEL = { width: 460, height: 300, left: 60, right: 15, top: 50, bottom: 60 };

function escapeXml(text) {
  return String(text).replace(/[<>&"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** A round axis maximum above `value`: 1, 2 or 5 times a power of ten. */
export function niceCeiling(value) {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function formatValue(value, digits) {
  return value >= 1000 ? Math.round(value).toLocaleString('en-US') : value.toFixed(digits);
}

/**
 * One panel at horizontal offset `x`. values: { [target]: { [family]: number } }.
 */
function panel({ x, title, unit, targets, families, values, digits }) {
  const plotWidth = PANEL.width - PANEL.left - PANEL.right;
  const plotHeight = PANEL.height - PANEL.top - PANEL.bottom;
  const all = targets
    .flatMap((target) => families.map((family) => values[target]?.[family]))
    .filter((v) => typeof v === 'number');
  const maximum = niceCeiling(Math.max(0, ...all));
  const originX = x + PANEL.left;
  const baseY = PANEL.top + plotHeight;
  const parts = [
    `<text x="${x + PANEL.width / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${escapeXml(title)}</text>`,
    `<text x="${x + 14}" y="${PANEL.top + plotHeight / 2}" text-anchor="middle" font-size="11" transform="rotate(-90 ${x + 14} ${PANEL.top + plotHeight / 2})">${escapeXml(unit)}</text>`,
  ];
  for (let tick = 0; tick <= 4; tick += 1) {
    const value = (maximum * tick) / 4;
    const y = baseY - (plotHeight * tick) / 4;
    parts.push(
      `<line x1="${originX}" y1="${y}" x2="${originX + plotWidth}" y2="${y}" stroke="#ddd"/>`,
      `<text x="${originX - 6}" y="${y + 4}" text-anchor="end" font-size="10">${formatValue(value, digits)}</text>`,
    );
  }
  const groupWidth = plotWidth / Math.max(1, targets.length);
  const barWidth = Math.min(28, (groupWidth * 0.8) / families.length);
  targets.forEach((target, targetIndex) => {
    const groupX = originX + targetIndex * groupWidth + (groupWidth - barWidth * families.length) / 2;
    families.forEach((family, familyIndex) => {
      const value = values[target]?.[family];
      if (typeof value !== 'number') return;
      const height = (value / maximum) * plotHeight;
      const barX = groupX + familyIndex * barWidth;
      parts.push(
        `<rect x="${barX.toFixed(1)}" y="${(baseY - height).toFixed(1)}" width="${(barWidth - 2).toFixed(1)}" height="${height.toFixed(1)}" fill="${FAMILY_COLORS[family]}"><title>${escapeXml(`${target}, ${FAMILY_NAMES[family]}: ${formatValue(value, digits)} ${unit}`)}</title></rect>`,
        `<text x="${(barX + barWidth / 2 - 1).toFixed(1)}" y="${(baseY - height - 3).toFixed(1)}" text-anchor="middle" font-size="9">${formatValue(value, digits)}</text>`,
      );
    });
    parts.push(
      `<text x="${(originX + targetIndex * groupWidth + groupWidth / 2).toFixed(1)}" y="${baseY + 16}" text-anchor="middle" font-size="11">${escapeXml(target)}</text>`,
    );
  });
  parts.push(`<line x1="${originX}" y1="${baseY}" x2="${originX + plotWidth}" y2="${baseY}" stroke="#333"/>`);
  return parts.join('\n');
}

/**
 * throughput / p50Ms: { [target]: { native?: number, openai?: number } }; targets in display order.
 */
export function renderLatencyThroughputSvg({ targets, throughput, p50Ms, caption = '' }) {
  const families = ['native', 'openai'];
  const width = PANEL.width * 2;
  const height = PANEL.height + 20;
  const legendY = PANEL.height - 18;
  const legend = families
    .map(
      (family, index) =>
        `<rect x="${PANEL.left + index * 220}" y="${legendY - 10}" width="12" height="12" fill="${FAMILY_COLORS[family]}"/>` +
        `<text x="${PANEL.left + index * 220 + 18}" y="${legendY}" font-size="12">${FAMILY_NAMES[family]}</text>`,
    )
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
${panel({ x: 0, title: 'Throughput, 64 connections, non-stream', unit: 'requests/s', targets, families, values: throughput, digits: 0 })}
${panel({ x: PANEL.width, title: 'p50 latency, 1 connection, non-stream', unit: 'ms', targets, families, values: p50Ms, digits: 3 })}
${legend}
<text x="${width - 10}" y="${height - 6}" text-anchor="end" font-size="10" fill="#666">${escapeXml(caption)}</text>
</svg>
`;
}

/** The plot's data from the derived figures (medians across rounds). */
export function plotDataFromFigures(figures, targetOrder) {
  const throughput = {};
  const p50Ms = {};
  for (const family of ['native', 'openai']) {
    for (const [target, entry] of Object.entries(figures[`throughput/${family}`]?.byTarget ?? {})) {
      (throughput[target] ??= {})[family] = entry.aggregate?.rps;
    }
    for (const [target, entry] of Object.entries(figures[`latency/${family}`]?.byTarget ?? {})) {
      if (typeof entry.aggregate?.p50Us === 'number')
        (p50Ms[target] ??= {})[family] = entry.aggregate.p50Us / 1000;
    }
  }
  const targets = targetOrder.filter((target) => throughput[target] || p50Ms[target]);
  return { targets, throughput, p50Ms };
}
