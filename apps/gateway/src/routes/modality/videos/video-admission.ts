import { isModelAllowed, type ResolvedKey } from '@gateway/auth';
import { MAX_HOLD_MICROS, videoSecondPrice, type ModelPrice } from '@gateway/billing';
import { isTheta2VideoModel } from '@gateway/providers';
import type { VideoCall, VideoPlan, VideoRequest, VideoRules } from '@gateway/providers-core';
import { orderCandidates, resolveModelName, type ChannelCandidate } from '@gateway/routing';
import type { VideoTaskPrice } from '@gateway/tasks';
import { GatewayError } from '@gateway/errors';
import { assertModelAllowed, modelNotFound } from '../../../pipeline/model-admission';
import {
  assertPriceBills,
  modelNotServedHere,
  modelServedElsewhere,
  type UsageDimension,
} from '../../../pipeline/model-kind';
import type { VideoRequestDraft } from './video-request.mapper';

/** What admission reads of the catalog, the prices, the circuits and the family rules. */
export interface VideoRouting {
  candidatesFor(model: string): readonly ChannelCandidate[];
  priceFor(model: string): ModelPrice | undefined;
  /** Whether the channel's circuit is closed; asking claims no half-open probe. */
  circuitClosed(channelId: string): boolean;
  /** The video rules of a channel type that can also run tasks; undefined otherwise. */
  rulesFor(type: string): VideoRules | undefined;
  /** Whether some channel type's rules know `model` by that very name, whether or not a channel offers it. */
  isFamilyModel(model: string): boolean;
}

/**
 * The route a video is created on: which models it takes and by what it bills them. The unified
 * routes take every video model and bill by the second; a family route takes its family's models.
 */
export interface VideoRouteScope {
  /** The route as a refusal names it (`POST /v1/videos`). */
  route: string;
  /** Whether the route takes the base model; absent, every model a video channel serves. */
  servesModel?(model: string): boolean;
  /** The price dimensions the route bills by (theta 2.0: tokens, else seconds). */
  billedBy: readonly UsageDimension[];
}

/** The theta 2.0 route, the one that prices theta 2.0 (by tokens). */
export const THETA_2_ROUTE = 'POST /v1/video/generations';

/** `POST /v1/videos`, `/v1/video/create` and remixes: every video model, per second. */
export const UNIFIED_VIDEO_SCOPE: VideoRouteScope = { route: 'POST /v1/videos', billedBy: ['videoSecond'] };

/** A video request the gateway will run: the channel it is pinned to, the call to submit, its price. */
export interface AdmittedVideo {
  /** The base model: the task row's model, which the channel maps to the upstream's id. */
  model: string;
  channel: ChannelCandidate;
  call: VideoCall;
  warnings: string[];
  price: VideoTaskPrice;
  holdMicros: bigint;
}

/**
 * Everything decided before money moves: the model name resolved (a combined billing name into its
 * base and dimensions), the key allowed it, it is priced (a combined name with a price row of its own
 * by that row, else by its base's) by a dimension the route bills (issue 31: a model of another kind
 * or family, or priced by nothing the route bills, is a 404 naming the route that serves it or the
 * price field it lacks), a channel serves it whose family rules accept the request (a
 * refusal is the client's 400 naming the field and the values allowed), and what the hold is:
 * per call + seconds × the price of a second at the planned resolution. The channel is chosen now,
 * in routing order, preferring closed circuits: the task is pinned to it. A remix is pinned to the
 * channel that made its source, and must be planned as a remix.
 */
export function admitVideo(
  draft: VideoRequestDraft,
  key: ResolvedKey,
  routing: VideoRouting,
  remixOn?: { channelId: string },
  scope: VideoRouteScope = UNIFIED_VIDEO_SCOPE,
): AdmittedVideo {
  const { modelName } = draft;
  const offered = (model: string) => videoChannelsOf(model, routing).length > 0;
  // A family's own model is never read as a combined name: `delta-2-pro` where only `delta-2` is
  // offered is a model no channel serves, not `delta-2` with a `pro` billing word.
  const resolved =
    routing.isFamilyModel(modelName) && !offered(modelName)
      ? undefined
      : resolveModelName(modelName, offered);
  if (!resolved || !isModelAllowed(key, resolved.base)) assertModelAllowed(key, modelName);
  if (!resolved) {
    // No video channel serves the name on any route: a text, image or music model is named with its
    // route, a video model is simply not found.
    const videoRoute = isTheta2VideoModel(modelName) ? THETA_2_ROUTE : UNIFIED_VIDEO_SCOPE.route;
    const unserved = { route: videoRoute, kind: 'video' } as const;
    throw modelNotServedHere(
      unserved,
      modelName,
      routing.candidatesFor(modelName),
      routing.priceFor(modelName),
    );
  }
  const price = routing.priceFor(modelName) ?? routing.priceFor(resolved.base);
  if (!price) throw modelNotFound(modelName);
  if (scope.servesModel && !scope.servesModel(resolved.base)) {
    // A video model of another family: served, but on another route.
    const here = { route: scope.route, kind: 'video' } as const;
    throw modelNotServedHere(here, modelName, routing.candidatesFor(resolved.base), price);
  }
  if (scope.route !== THETA_2_ROUTE && isTheta2VideoModel(resolved.base)) {
    // theta 2.0 is billed by tokens, which only its own route prices.
    throw modelServedElsewhere(modelName, `is a video model: it is created with ${THETA_2_ROUTE}`);
  }
  assertPriceBills(modelName, price, scope.billedBy);
  const request: VideoRequest = {
    ...draft.fields,
    model: resolved.base,
    dimensions: resolved.dimensions,
    byteStrings: draft.byteStrings,
  };
  let channels = videoChannelsOf(resolved.base, routing);
  if (remixOn) channels = channels.filter((channel) => channel.id === remixOn.channelId);
  if (draft.channelId !== undefined) {
    channels = channels.filter((channel) => channel.id === draft.channelId);
    if (channels.length === 0) {
      throw GatewayError.invalidRequest(
        `The assets this request cites are on a channel that does not serve '${modelName}'.`,
        'model',
      );
    }
  }
  if (channels.length === 0) {
    throw GatewayError.invalidRequest(
      `The channel that made this video does not serve '${modelName}'; remix it with its own model.`,
      'model',
    );
  }
  const { channel, plan } = chooseChannel(channels, request, routing);
  if (remixOn && plan.call.mode !== 'remix') {
    throw GatewayError.invalidRequest(`The model '${modelName}' cannot remix a video.`, 'model');
  }
  return { model: resolved.base, channel, ...plan, ...priced(plan.call, price, request, modelName) };
}

/** The channels offering the model whose type's video rules serve it. */
function videoChannelsOf(model: string, routing: VideoRouting): ChannelCandidate[] {
  return routing
    .candidatesFor(model)
    .filter((candidate) => routing.rulesFor(candidate.type)?.servesVideoModel(model) === true);
}

/** The first channel in routing order whose rules accept the request, a closed circuit first. */
function chooseChannel(
  channels: readonly ChannelCandidate[],
  request: VideoRequest,
  routing: VideoRouting,
): { channel: ChannelCandidate; plan: Extract<VideoPlan, { ok: true }> } {
  const plans = new Map<string, VideoPlan>();
  const planOf = (type: string): VideoPlan => {
    let plan = plans.get(type);
    if (!plan) {
      plan = (routing.rulesFor(type) as VideoRules).planVideo(request);
      plans.set(type, plan);
    }
    return plan;
  };
  const ordered = orderCandidates(channels);
  const accepting = ordered.filter((candidate) => planOf(candidate.type).ok);
  if (accepting.length === 0) {
    // Every type refused: the first refusal in routing order is the client's answer.
    const refusal = planOf(ordered[0].type) as Extract<VideoPlan, { ok: false }>;
    const code = refusal.httpStatus === 413 ? 'payload_too_large' : 'invalid_request';
    throw new GatewayError(code, refusal.message, { param: refusal.param });
  }
  const channel = accepting.find((candidate) => routing.circuitClosed(candidate.id)) ?? accepting[0];
  return { channel, plan: planOf(channel.type) as Extract<VideoPlan, { ok: true }> };
}

/** The price the task keeps and its hold; a resolution the model is not priced at is the client's 400. */
function priced(
  call: VideoCall,
  price: ModelPrice,
  request: VideoRequest,
  modelName: string,
): { price: VideoTaskPrice; holdMicros: bigint } {
  const perSecond = videoSecondPrice(price, call.resolution ?? undefined);
  if (!perSecond.ok) {
    throw GatewayError.invalidRequest(
      `The model '${modelName}' has no price for ${call.resolution ?? 'its default'} video; ` +
        `priced resolutions: ${perSecond.offered.join(', ') || 'none'}.`,
      resolutionParamOf(request),
    );
  }
  const heldSeconds = Math.ceil(call.seconds);
  const holdMicros = price.perCall + BigInt(heldSeconds) * perSecond.micros;
  if (holdMicros > MAX_HOLD_MICROS) {
    throw GatewayError.invalidRequest(
      `${heldSeconds} seconds of this model would reserve more than ${MAX_HOLD_MICROS} micros; ask for fewer.`,
      'seconds',
    );
  }
  return {
    price: {
      resolution: call.resolution,
      perCallMicros: price.perCall,
      perSecondMicros: perSecond.micros,
      heldSeconds,
    },
    holdMicros,
  };
}

/** Where the resolution came from, by the precedence rule. */
function resolutionParamOf(request: VideoRequest): string {
  if (request.resolution === undefined) return 'model';
  return request.resolution === request.size ? 'size' : 'metadata.output_config.resolution';
}
