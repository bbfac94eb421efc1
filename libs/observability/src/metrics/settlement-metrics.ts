import type { DomainMetrics } from './domain-metrics';

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
  /** Counted since the last scrape, not yet handed to prom-client. */
  pendingInputTokens: number;
  pendingOutputTokens: number;
  pendingSpend: number;
}

/** A settlement that named no model (a refused request's log, an old lease) counts under this. */
const UNKNOWN_MODEL = 'unknown';

// perf-machinery: scraped-settlement-counts (docs/performance-machinery.md)
/**
 * Tokens, spend and time to first byte by model, from the settlements the database applied (so each
 * request counts once, in whichever process settled it: the gateway inline, worker-text after a
 * hand-off, a task worker). Implements SettlementObserver of libs/billing.
 *
 * The three counters are summed here and handed to prom-client when it is scraped (the counters'
 * collect hook): prom-client hashes a child's labels again at every increment, which cost more than
 * the rest of a settlement's bookkeeping on the text path.
 */
export class SettlementMetrics {
  private readonly byModel = new Map<string, ModelSeries>();

  constructor(private readonly metrics: DomainMetrics) {
    metrics.sources.onScrape(() => this.flush());
  }

  readonly settled = (usage: SettledUsageFigures): void => {
    const series = this.seriesOf(usage.model ?? UNKNOWN_MODEL);
    if (usage.inputTokens > 0) series.pendingInputTokens += usage.inputTokens;
    if (usage.outputTokens > 0) series.pendingOutputTokens += usage.outputTokens;
    if (usage.capturedMicros > 0n) series.pendingSpend += Number(usage.capturedMicros);
    if (usage.ttfbMs !== undefined) series.firstByte.observe(usage.ttfbMs / 1000);
  };

  private seriesOf(model: string): ModelSeries {
    let series = this.byModel.get(model);
    if (series === undefined) {
      series = {
        inputTokens: this.metrics.tokens.labels({ model, direction: 'input' }),
        outputTokens: this.metrics.tokens.labels({ model, direction: 'output' }),
        spend: this.metrics.spendMicros.labels({ model }),
        firstByte: this.metrics.streamFirstByte.labels({ model }),
        pendingInputTokens: 0,
        pendingOutputTokens: 0,
        pendingSpend: 0,
      };
      this.byModel.set(model, series);
    }
    return series;
  }

  private flush(): void {
    for (const series of this.byModel.values()) {
      if (series.pendingInputTokens > 0) series.inputTokens.inc(series.pendingInputTokens);
      if (series.pendingOutputTokens > 0) series.outputTokens.inc(series.pendingOutputTokens);
      if (series.pendingSpend > 0) series.spend.inc(series.pendingSpend);
      series.pendingInputTokens = 0;
      series.pendingOutputTokens = 0;
      series.pendingSpend = 0;
    }
  }
}
