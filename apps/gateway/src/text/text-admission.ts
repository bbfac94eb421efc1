import type { ResolvedKey } from '@gateway/auth';
import { estimateTextHoldMicros, type ModelPrice } from '@gateway/billing';
import { getTextAdapter } from '@gateway/providers';
import type { TextAdapter, TextDialect } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '../errors/gateway-error';
import { createDialectBridge, type BridgeIdentity, type DialectBridge } from './dialect-bridge';
import type { TextIngress } from './text-ingress';

export interface AdmittedCandidate {
  candidate: ChannelCandidate;
  adapter: TextAdapter;
  bridge: DialectBridge;
}

export interface TextAdmission {
  candidates: AdmittedCandidate[];
  price: ModelPrice;
  holdMicros: bigint;
}

/**
 * Everything decided before money moves: may this key use this model, which channels can serve it in
 * which dialect, what it costs at most. Throws the client's error; nothing has been held yet.
 */
export function admitTextRequest(
  ingress: TextIngress,
  key: ResolvedKey,
  channels: readonly ChannelCandidate[],
  price: ModelPrice | undefined,
  identity: BridgeIdentity,
): TextAdmission {
  if (key.allowedModels && !key.allowedModels.has(ingress.model)) {
    throw new GatewayError('model_not_allowed', `This API key may not use the model '${ingress.model}'.`, {
      param: 'model',
    });
  }
  const textChannels = channels.flatMap((candidate) => {
    const adapter = getTextAdapter(candidate.type);
    return adapter ? [{ candidate, adapter }] : [];
  });
  if (textChannels.length === 0 || !price) {
    throw new GatewayError(
      'model_not_found',
      `The model '${ingress.model}' does not exist or is not available.`,
      {
        param: 'model',
      },
    );
  }
  const bridges = new Map<TextDialect, DialectBridge | GatewayError>();
  const bridgeFor = (dialect: TextDialect) => {
    let bridge = bridges.get(dialect);
    if (!bridge) {
      try {
        bridge = createDialectBridge(ingress, dialect, identity);
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        bridge = error;
      }
      bridges.set(dialect, bridge);
    }
    return bridge;
  };
  const candidates: AdmittedCandidate[] = [];
  let refusal: GatewayError | undefined;
  for (const { candidate, adapter } of textChannels) {
    const bridge = bridgeFor(adapter.dialect);
    if (bridge instanceof GatewayError) refusal = bridge;
    else candidates.push({ candidate, adapter, bridge });
  }
  if (candidates.length === 0)
    throw refusal ?? new GatewayError('model_not_found', `No channel serves '${ingress.model}'.`);
  const holdMicros = estimateTextHoldMicros(
    {
      promptBytes: ingress.promptBytes,
      maxOutputTokens: ingress.maxOutputTokens,
      candidateCount: ingress.candidateCount,
    },
    price,
  );
  return { candidates, price, holdMicros };
}
