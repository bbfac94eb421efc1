import type { SettlementInput } from '@gateway/billing';
import { tracing, type TraceSpan } from '@gateway/observability';

/** Where a batch of settlements went (SettlementRecorder). */
export type SettlementBatchOutcome = 'written' | 'handed_off' | 'hand_off_failed';

/**
 * One span per settled request, a child of the request's span, from the moment the pipeline hands
 * the settlement over (after the answer) until its batch is written, handed to worker-text, or left
 * to the hold reaper; it names the batch's size. Per request rather than one span per batch linked to
 * its requests: an operator opens one request's trace, and there the settlement must show, with the
 * time it waited for its batch; a batch span would show it only in tools that follow links, and only
 * from the batch's side. The cost, one span per request that lives for a batch's flush, is paid only
 * with tracing on: SettlementRecorder calls `begin` behind `tracing.enabled`, and `end` returns at
 * once while no span is open.
 */
export class SettlementSpans {
  private readonly open = new Map<string, TraceSpan>();

  /** In the request's context, when tracing is on. The model and how the request ended; never amounts. */
  begin(item: SettlementInput): void {
    const span = tracing.startSpan('settlement', {
      'gateway.model': item.log.model ?? 'unknown',
      'gateway.request.end_reason': item.log.endReason,
    });
    if (span) this.open.set(item.requestId, span);
  }

  end(batch: readonly SettlementInput[], outcome: SettlementBatchOutcome): void {
    if (this.open.size === 0) return;
    for (const item of batch) {
      const span = this.open.get(item.requestId);
      if (!span) continue;
      this.open.delete(item.requestId);
      tracing.annotate(span, {
        'gateway.settlement.outcome': outcome,
        'gateway.settlement.batch_size': batch.length,
      });
      if (outcome === 'hand_off_failed') tracing.fail(span, 'settlement_hand_off_failed');
      span.end();
    }
  }
}
