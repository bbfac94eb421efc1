import type { ModelPrice } from '@gateway/billing';
import { isTheta2VideoModel, isVideoFamilyModel } from '@gateway/providers';
import type { ChannelCandidate } from '@gateway/routing';
import { GatewayError } from '@gateway/errors';
import { modelNotFound } from './model-admission';
import { LAMBDA_CHANNEL_TYPE } from '../routes/modality/music/music-task.constants';

/** What a model makes. Each kind has its own routes and the price dimension that bills them. */
export type ModelKind = 'text' | 'image' | 'video' | 'music';

/** The kinds the synchronous routes make: text (chat, generate, stream) and images. */
export type SynchronousKind = Extract<ModelKind, 'text' | 'image'>;

// perf-machinery: model-kind-cache (docs/performance-machinery.md)
/**
 * Whether a video family knows the model, remembered per model name: the answer asks every channel
 * type's rules (about 2 µs), on every text and image request. Only priced models are asked, but a
 * priced name can carry client-chosen parts (omega's `:<W*H>`), so the map starts over at its bound.
 */
const REMEMBERED_MODELS_BOUND = 1024;
const videoFamilyModels = new Map<string, boolean>();
function isVideoFamilyModelRemembered(model: string): boolean {
  let known = videoFamilyModels.get(model);
  if (known === undefined) {
    known = isVideoFamilyModel(model);
    if (videoFamilyModels.size >= REMEMBERED_MODELS_BOUND) videoFamilyModels.clear();
    videoFamilyModels.set(model, known);
  }
  return known;
}

/**
 * The kinds a model makes. A family that knows the model by name decides, whatever its price holds:
 * a video family's model makes video, a model of the music channel type makes music. Otherwise the
 * price does, by the dimensions it bills: tokens make text, a per-image table images, a per-second
 * table video (a combined billing name). A flat price (per call only) bills every route alike, so it
 * tells nothing: no kind, and the model is left to the channels' capabilities.
 */
export function modelKindsOf(
  model: string,
  channels: readonly ChannelCandidate[],
  price: ModelPrice,
): ModelKind[] {
  if (isVideoFamilyModelRemembered(model)) return ['video'];
  if (channels.some((channel) => channel.type === LAMBDA_CHANNEL_TYPE)) return ['music'];
  const kinds: ModelKind[] = [];
  if (price.inputPerMillion > 0n || price.outputPerMillion > 0n) kinds.push('text');
  if (price.perImage) kinds.push('image');
  if (price.perVideoSecond) kinds.push('video');
  return kinds;
}

/**
 * Refuses a model of another kind than the route makes, as a model this route does not have (404),
 * naming the route that serves it. Served here it would be billed by a dimension its price lacks: a
 * video model on the image route or an image model on a text route would cost nothing.
 */
export function assertModelKind(
  routeKind: SynchronousKind,
  model: string,
  channels: readonly ChannelCandidate[],
  price: ModelPrice,
): void {
  const kinds = modelKindsOf(model, channels, price);
  if (kinds.length === 0 || kinds.includes(routeKind)) return;
  throw modelServedElsewhere(model, `is ${servedBy(kinds[0], model, routeKind).text}`);
}

/** The 404 of a model that this route does not have though another one does, `where` naming it. */
export function modelServedElsewhere(model: string, where: string): GatewayError {
  return new GatewayError('model_not_found', `The model '${model}' ${where}.`, { param: 'model' });
}

/**
 * The 404 of a model a task route does not serve (no channel offers it there, or the route takes
 * another family): naming the route that does when its family or its price tells another kind, or a
 * route other than `here`; the plain "does not exist" otherwise, and for an unpriced model.
 */
export function modelNotServedHere(
  here: { route: string; kind: ModelKind },
  model: string,
  channels: readonly ChannelCandidate[],
  price: ModelPrice | undefined,
): GatewayError {
  if (!price) return modelNotFound(model);
  // A kappa image model is both text and image: either names a route that is not this one.
  const elsewhere = modelKindsOf(model, channels, price)
    .map((kind) => servedBy(kind, model, here.kind))
    .find((served) => !served.routes.includes(here.route));
  return elsewhere ? modelServedElsewhere(model, `is ${elsewhere.text}`) : modelNotFound(model);
}

/** What a route measures and bills: a price must have one of these for the route to serve the model. */
export type UsageDimension = 'tokens' | 'image' | 'videoSecond' | 'task';

const PRICE_FIELDS: Readonly<Record<UsageDimension, string>> = {
  tokens: 'inputPerMillion or outputPerMillion',
  image: 'perImage',
  videoSecond: 'perVideoSecond',
  task: 'perCall',
};

/**
 * Refuses a model whose price bills none of the dimensions the route measures: served, its usage
 * would be billed 0 (a video model priced only per image costs nothing per second). A flat price (per
 * call only) is the operator's choice to bill every call alike, and is served. The refusal is the
 * unpriced model's: a 404 model_not_found naming the price field that is missing, never a 500 and
 * never a free task; the operator fixes the price row.
 */
export function assertPriceBills(
  model: string,
  price: ModelPrice,
  dimensions: readonly UsageDimension[],
): void {
  if (dimensions.some((dimension) => billsBy(price, dimension)) || isFlat(price)) return;
  throw new GatewayError(
    'model_not_found',
    `The model '${model}' is not priced for this route, which bills by ` +
      `${dimensions.map((dimension) => PRICE_FIELDS[dimension]).join(' or ')}: its price has none, ` +
      `so it is not served here until its price row sets one.`,
    { param: 'model' },
  );
}

function billsBy(price: ModelPrice, dimension: UsageDimension): boolean {
  switch (dimension) {
    case 'tokens':
      return price.inputPerMillion > 0n || price.outputPerMillion > 0n;
    case 'image':
      return price.perImage !== undefined;
    case 'videoSecond':
      return price.perVideoSecond !== undefined;
    case 'task':
      return price.perCall > 0n;
  }
}

function isFlat(price: ModelPrice): boolean {
  return (
    billsBy(price, 'task') && !(['tokens', 'image', 'videoSecond'] as const).some((d) => billsBy(price, d))
  );
}

/**
 * The model's kind and the routes that serve it, for the refusal that sends the client there. A text
 * or image model on a route of another kind says which kind it is not (`routeKind`).
 */
function servedBy(
  kind: ModelKind,
  model: string,
  routeKind: ModelKind,
): { text: string; routes: readonly string[] } {
  const not = routeKind === kind ? '' : `, not ${articled(routeKind)} model`;
  switch (kind) {
    case 'text': {
      const routes = ['POST /v1/chat/completions', `POST /v1beta/models/${model}:generateContent`];
      return { text: `a text model${not}: it is served by ${routes.join(' and ')}`, routes };
    }
    case 'image':
      return {
        text: `an image model${not}: it is served by POST /v1/images/generations`,
        routes: ['POST /v1/images/generations'],
      };
    case 'video': {
      // theta 2.0 takes content items, on a route of its own.
      const route = isTheta2VideoModel(model) ? 'POST /v1/video/generations' : 'POST /v1/videos';
      return { text: `a video model: it is created with ${route}`, routes: [route] };
    }
    case 'music':
      return {
        text: 'a music model: it is created with POST /lambda/submit/music',
        routes: ['POST /lambda/submit/music'],
      };
  }
}

function articled(kind: ModelKind): string {
  return kind === 'image' ? 'an image' : `a ${kind}`;
}
