import type { DomainMetrics } from './domain-metrics';
import { SeriesCache } from './series-cache';

/** The fields of a settlement the metrics read; SettlementObserver's argument in libs/billing. */
export interface SettledUsageFigures {
  model: string | undefined;
  inputTokens: number;
  outputTokens: number;
  capturedMicros: bigint;
  ttfbMs: number | undefined;
}

interface ModelSeries {
  inputTokens: { inc(value: number): void };
  outputTokens: { inc(value: number): void };
  spend: { inc(value: number): void };
  firstByte: { observe(seconds: number): void };
}

/** A settlement that named no model (a refused request's log, an old lease) counts under this. */
const UNKNOWN_MODEL = 'unknown';

/**
 * Tokens, spend and time to first byte by model, from the settlements the database applied (so each
 * request counts once, in whichever process settled it: the gateway inline, worker-text after a
 * hand-off, a task worker). Implements SettlementObserver of libs/billing.
 */
export class SettlementMetrics {
  private readonly byModel = new SeriesCache<ModelSeries>();

  constructor(private readonly metrics: DomainMetrics) {}

  readonly settled = (usage: SettledUsageFigures): void => {
    const model = usage.model ?? UNKNOWN_MODEL;
    const series = this.byModel.get(model, () => ({
      inputTokens: this.metrics.tokens.labels({ model, direction: 'input' }),
      outputTokens: this.metrics.tokens.labels({ model, direction: 'output' }),
      spend: this.metrics.spendMicros.labels({ model }),
      firstByte: this.metrics.streamFirstByte.labels({ model }),
    }));
    if (usage.inputTokens > 0) series.inputTokens.inc(usage.inputTokens);
    if (usage.outputTokens > 0) series.outputTokens.inc(usage.outputTokens);
    if (usage.capturedMicros > 0n) series.spend.inc(Number(usage.capturedMicros));
    if (usage.ttfbMs !== undefined) series.firstByte.observe(usage.ttfbMs / 1000);
  };
}
