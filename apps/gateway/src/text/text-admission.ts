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
  /** The channels serving the model that have a text adapter, in the catalog's order. */
  candidates: ChannelCandidate[];
  price: ModelPrice;
  holdMicros: bigint;
  /**
   * The candidate ready to be called, or undefined when its dialect cannot carry this request. The
   * bridge to a dialect is built on first use, once per request: a failover channel of another
   * dialect costs a translation only when its turn comes.
   */
  admit(candidate: ChannelCandidate): AdmittedCandidate | undefined;
  /** Whether admit() gives the candidate; the failover asks before each attempt. */
  serves(candidate: ChannelCandidate): boolean;
}

/**
 * Everything decided before money moves: may this key use this model, can some channel serve it in
 * its dialect, what it costs at most. Throws the client's error; nothing has been held yet.
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
  const candidates = channels.filter((candidate) => getTextAdapter(candidate.type) !== undefined);
  if (candidates.length === 0 || !price) {
    throw new GatewayError(
      'model_not_found',
      `The model '${ingress.model}' does not exist or is not available.`,
      {
        param: 'model',
      },
    );
  }
  const bridges: Partial<Record<TextDialect, DialectBridge | GatewayError>> = {};
  const bridgeTo = (dialect: TextDialect): DialectBridge | GatewayError => {
    let bridge = bridges[dialect];
    if (!bridge) {
      try {
        bridge = createDialectBridge(ingress, dialect, identity);
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error;
        bridge = error;
      }
      bridges[dialect] = bridge;
    }
    return bridge;
  };
  const adapterOf = (candidate: ChannelCandidate) => getTextAdapter(candidate.type) as TextAdapter;
  const serves = (candidate: ChannelCandidate) =>
    !(bridgeTo(adapterOf(candidate).dialect) instanceof GatewayError);
  const admit = (candidate: ChannelCandidate): AdmittedCandidate | undefined => {
    const adapter = adapterOf(candidate);
    const bridge = bridgeTo(adapter.dialect);
    return bridge instanceof GatewayError ? undefined : { candidate, adapter, bridge };
  };
  // A channel of the client's own dialect takes the request as it is; only without one must a
  // translation prove possible before the hold.
  const takesItAsItIs = candidates.some((candidate) => adapterOf(candidate).dialect === ingress.dialect);
  if (!takesItAsItIs && !candidates.some(serves)) {
    // No candidate is served, so every bridge built is the refusal naming what cannot be carried.
    throw bridgeTo(adapterOf(candidates[0]).dialect);
  }
  const holdMicros = estimateTextHoldMicros(
    {
      promptBytes: ingress.promptBytes,
      maxOutputTokens: ingress.maxOutputTokens,
      candidateCount: ingress.candidateCount,
    },
    price,
  );
  return { candidates, price, holdMicros, admit, serves };
}
