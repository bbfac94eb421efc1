import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { PriceBook, textCostMicros } from '@gateway/billing';
import type { GatewayConfig } from '@gateway/config';
import type { CancellationSignal } from '@gateway/providers-core';
import { ChannelCatalog } from '@gateway/routing';
import { AdapterContexts } from '../../../pipeline/adapter-contexts';
import { LOGGER } from '../../../platform/infrastructure/tokens';
import { ChannelAttempts } from '../../../pipeline/channel-attempts';
import type {
  GenerationAnswer,
  GenerationCall,
  GenerationSettlement,
  SynchronousGeneration,
} from '../../../pipeline/synchronous-generation';
import { toBillableUsage } from './partial-usage.util';
import { createStreamFramer } from './stream-framing';
import { admitTextRequest, type AdmittedCandidate, type TextAdmission } from './text-admission';
import type { TextIngress } from './text-ingress';
import { relayTextStream, type OpenedTextStream, type TextOutcome } from './text-stream.relay';

type TextPlan = TextAdmission;

const NO_SETTLEMENT: GenerationSettlement = { captureMicros: 0n };

/**
 * What the text routes contribute to the generation pipeline (../pipeline/generation-pipeline.ts):
 * the admission (dialect bridges, the hold estimate), the channel call (whole, or a stream opened to
 * its first read so that failover stays possible), and the price of the usage. What is textual stays
 * here: dialect bridging and the stream relay. Built once; nothing per request but the request's own.
 */
@Injectable()
export class TextGenerationService implements SynchronousGeneration<TextIngress, TextPlan, TextOutcome> {
  readonly holdStyle = 'leased';
  readonly holdHint = 'Add credit or lower maxOutputTokens / max_tokens.';

  constructor(
    private readonly catalog: ChannelCatalog,
    private readonly prices: PriceBook,
    private readonly contexts: AdapterContexts,
    private readonly attempts: ChannelAttempts,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  holdTtlMs(config: GatewayConfig): number {
    return config.holdTtlMs;
  }

  routeOf(ingress: TextIngress): string {
    return ingress.route;
  }

  plan(ingress: TextIngress, call: GenerationCall): TextPlan {
    call.model = ingress.model;
    return admitTextRequest(
      ingress,
      call.key,
      this.catalog.candidatesFor(ingress.model),
      this.prices.priceFor(ingress.model),
      { responseId: `chatcmpl-${call.request.id}`, createdSeconds: Math.floor(call.startedAt / 1000) },
    );
  }

  answer(
    plan: TextPlan,
    _call: GenerationCall,
    signal: CancellationSignal,
  ): Promise<GenerationAnswer<TextOutcome>> {
    return plan.ingress.framing ? this.openStream(plan, signal) : this.whole(plan, signal);
  }

  settlementOf(plan: TextPlan, outcome: TextOutcome): GenerationSettlement {
    if (!outcome.usage) return NO_SETTLEMENT;
    return {
      captureMicros: textCostMicros(toBillableUsage(outcome.usage), plan.price),
      tokens: outcome.usage,
    };
  }

  private async whole(plan: TextPlan, signal: CancellationSignal): Promise<GenerationAnswer<TextOutcome>> {
    const { value, candidate, attempts, durationMs } = await this.withFailover(plan, async (admitted) => ({
      admitted,
      response: await admitted.adapter.generate(
        admitted.bridge.toCall(admitted.candidate.upstreamModel),
        this.contexts.for(admitted.candidate, signal),
      ),
    }));
    return {
      kind: 'whole',
      body: value.admitted.bridge.toClientBody(value.response),
      warnings: value.admitted.bridge.warnings,
      served: { candidate, durationMs },
      outcome: {
        httpStatus: 200,
        endReason: value.response.promptBlockReason ? 'prompt_blocked' : 'completed',
        usage: value.response.usage,
        channelId: candidate.id,
        attempts: attempts.length,
      },
    };
  }

  /**
   * The attempt only succeeds once the first read is in hand: until a byte reaches the client, a
   * failing channel can still be replaced by the next one.
   */
  private async openStream(
    plan: TextPlan,
    signal: CancellationSignal,
  ): Promise<GenerationAnswer<TextOutcome>> {
    const {
      value: opened,
      candidate,
      attempts,
      durationMs,
    } = await this.withFailover(plan, async (admitted): Promise<OpenedTextStream> => {
      const upstream = await admitted.adapter.stream(
        admitted.bridge.toCall(admitted.candidate.upstreamModel),
        this.contexts.for(admitted.candidate, signal),
      );
      const iterator = upstream[Symbol.asyncIterator]();
      try {
        return { admitted, upstream, iterator, first: await iterator.next() };
      } catch (error) {
        upstream.abort();
        throw error;
      }
    });
    const framer = createStreamFramer(plan.ingress.framing ?? 'openai-sse');
    return {
      kind: 'stream',
      contentType: framer.contentType,
      warnings: opened.admitted.bridge.warnings,
      served: { candidate, durationMs },
      relay: (sink) => relayTextStream(plan.ingress, opened, attempts.length, framer, sink, this.logger),
    };
  }

  private withFailover<T>(plan: TextPlan, attempt: (admitted: AdmittedCandidate) => Promise<T>) {
    return this.attempts.run(
      plan.candidates,
      (candidate) => attempt(plan.admit(candidate) as AdmittedCandidate),
      plan.serves,
    );
  }
}
