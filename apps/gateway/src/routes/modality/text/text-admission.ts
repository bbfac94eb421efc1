import type { ResolvedKey } from '@gateway/auth';
import {
  estimateTextHoldMicros,
  FALLBACK_MAX_OUTPUT_TOKENS,
  MAX_HOLD_MICROS,
  type ModelPrice,
} from '@gateway/billing';
import { textAdapterFor } from '@gateway/providers';
import type { TextAdapter, TextDialect } from '@gateway/providers-core';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { assertModelAllowed, modelNotFound } from '../../../pipeline/model-admission';
import { assertModelKind } from '../../../pipeline/model-kind';
import { createDialectBridge, type BridgeIdentity, type DialectBridge } from './dialect-bridge';
import type { TextIngress } from './text-ingress';

export interface AdmittedCandidate {
  candidate: ChannelCandidate;
  adapter: TextAdapter;
  bridge: DialectBridge;
}

/** The plan of a text request, as the generation pipeline reads every plan. */
export interface TextAdmission {
  model: string;
  route: string;
  ingress: TextIngress;
  holdMicros: bigint;
  /** Prompt tokens (at most one per 2 bytes, as the hold counts them) and the most output asked for. */
  estimatedTokens: number;
  /** The channels serving the model that have a text adapter, in the catalog's order. */
  candidates: ChannelCandidate[];
  price: ModelPrice;
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
 * Everything decided before money moves: may this key use this model, is it a text model (by its
 * family and its price), can some channel serve it in its dialect, what it costs at most. Throws the
 * client's error; nothing has been held yet.
 */
export function admitTextRequest(
  ingress: TextIngress,
  key: ResolvedKey,
  channels: readonly ChannelCandidate[],
  price: ModelPrice | undefined,
  identity: BridgeIdentity,
): TextAdmission {
  assertModelAllowed(key, ingress.model);
  if (!price) throw modelNotFound(ingress.model);
  assertModelKind('text', ingress.model, channels, price);
  const candidates = channels.filter((candidate) => textAdapterFor(candidate.type) !== undefined);
  if (candidates.length === 0) throw modelNotFound(ingress.model);
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
  const adapterOf = (candidate: ChannelCandidate) => textAdapterFor(candidate.type) as TextAdapter;
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
  const holdMicros = textHoldMicros(ingress, price);
  return {
    model: ingress.model,
    route: ingress.route,
    ingress,
    holdMicros,
    estimatedTokens: estimatedTokensOf(ingress, price),
    candidates,
    price,
    admit,
    serves,
  };
}

/** The token estimate governance counts at admission; settlement corrects it with the usage. */
function estimatedTokensOf(ingress: TextIngress, price: ModelPrice): number {
  const output = ingress.maxOutputTokens ?? price.defaultMaxOutputTokens ?? FALLBACK_MAX_OUTPUT_TOKENS;
  return Math.ceil(ingress.promptBytes / 2) + output * Math.max(1, ingress.candidateCount);
}

/**
 * The hold of the request, computed exactly (bigint), or the client's error when it exceeds the largest
 * hold (MAX_HOLD_MICROS): an output cap times a candidate count that no account could ever cover is a
 * bad request, not a billing failure.
 */
function textHoldMicros(ingress: TextIngress, price: ModelPrice): bigint {
  let holdMicros: bigint | undefined;
  try {
    holdMicros = estimateTextHoldMicros(
      {
        promptBytes: ingress.promptBytes,
        maxOutputTokens: ingress.maxOutputTokens,
        candidateCount: ingress.candidateCount,
      },
      price,
    );
  } catch (error) {
    // A count beyond 2^53 that validation let through cannot be priced: as much the client's as a cap.
    if (!(error instanceof RangeError)) throw error;
  }
  if (holdMicros !== undefined && holdMicros <= MAX_HOLD_MICROS) return holdMicros;
  const [cap, count] = outputFieldsOf(ingress);
  throw GatewayError.invalidRequest(
    `${cap} × ${count} asks for more output than one request may hold: at this model's price it would ` +
      `reserve more than ${MAX_HOLD_MICROS} micros. Lower ${cap} or ${count}.`,
    cap,
  );
}

/** The request's output cap and candidate count fields, as the client's dialect names them. */
function outputFieldsOf(ingress: TextIngress): [cap: string, count: string] {
  if (ingress.dialect === 'native') {
    return ['generationConfig.maxOutputTokens', 'generationConfig.candidateCount'];
  }
  const cap = ingress.request['max_completion_tokens'] !== undefined ? 'max_completion_tokens' : 'max_tokens';
  return [cap, 'n'];
}
