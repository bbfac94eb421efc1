export interface ChannelModel {
  /** Public model name clients ask for. */
  model: string;
  /** Id sent upstream; the public name when the channel maps nothing. */
  upstreamModel: string;
}

/**
 * Reads the `models` JSON column (`[{ "model": …, "upstreamModel"?: … }]`, plain strings tolerated).
 * Malformed entries are skipped; the first entry of a model wins.
 */
export function parseChannelModels(column: unknown): ChannelModel[] {
  if (!Array.isArray(column)) return [];
  const models = new Map<string, ChannelModel>();
  for (const entry of column) {
    const parsed = parseEntry(entry);
    if (parsed && !models.has(parsed.model)) models.set(parsed.model, parsed);
  }
  return [...models.values()];
}

function parseEntry(entry: unknown): ChannelModel | undefined {
  if (typeof entry === 'string') return entry ? { model: entry, upstreamModel: entry } : undefined;
  if (typeof entry !== 'object' || entry === null || !('model' in entry)) return undefined;
  const model: unknown = entry.model;
  if (typeof model !== 'string' || model === '') return undefined;
  const upstreamModel: unknown = 'upstreamModel' in entry ? entry.upstreamModel : undefined;
  return { model, upstreamModel: typeof upstreamModel === 'string' && upstreamModel ? upstreamModel : model };
}
