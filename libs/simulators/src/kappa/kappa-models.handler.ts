import { sendJson, sendWireError } from '../raw-response.util';
import { runPreamble } from '../simulated-preamble';
import { SimulatedHandler } from '../simulated-route';
import { kappaInvalidArgument, kappaModelNotFound } from './kappa-errors';
import {
  KAPPA_LISTED_MODELS,
  MODEL_RESOURCE_PREFIX,
  isKnownKappaModel,
  toKappaModelResource,
} from './kappa-models';
import { KappaRouteContext, kappaPreamble } from './kappa-route-context';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;

/** `GET /{version}/models?pageSize=&pageToken=`; `nextPageToken` is absent on the last page. */
export function kappaListModelsHandler(context: KappaRouteContext): SimulatedHandler {
  return async (call) => {
    context.state.stats.countRoute('kappa:listModels');
    if (!(await runPreamble(call, kappaPreamble(context)))) return;
    const query = call.request.query as Record<string, string | undefined>;
    const pageSize = pageSizeOf(query['pageSize']);
    const offset = offsetOf(query['pageToken']);
    if (pageSize === undefined)
      return sendWireError(call.response, kappaInvalidArgument('Invalid page size.'));
    if (offset === undefined)
      return sendWireError(call.response, kappaInvalidArgument('Invalid page token.'));
    const end = offset + pageSize;
    const body: Record<string, unknown> = {
      models: KAPPA_LISTED_MODELS.slice(offset, end).map(toKappaModelResource),
    };
    if (end < KAPPA_LISTED_MODELS.length) body['nextPageToken'] = pageTokenOf(end);
    sendJson(call.response, 200, body);
  };
}

/** `GET /{version}/models/{model}`: any `kappa-*` id exists, everything else is NOT_FOUND. */
export function kappaGetModelHandler(context: KappaRouteContext): SimulatedHandler {
  return async (call) => {
    context.state.stats.countRoute('kappa:getModel');
    if (!(await runPreamble(call, kappaPreamble(context)))) return;
    const requested = (call.request.params as { model: string }).model;
    const model = requested.startsWith(MODEL_RESOURCE_PREFIX)
      ? requested.slice(MODEL_RESOURCE_PREFIX.length)
      : requested;
    if (!isKnownKappaModel(model)) {
      return sendWireError(call.response, kappaModelNotFound(model, context.apiVersion, 'get'));
    }
    sendJson(call.response, 200, toKappaModelResource(model));
  };
}

function pageSizeOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return DEFAULT_PAGE_SIZE;
  const size = Number(value);
  if (!Number.isInteger(size) || size < 0) return undefined;
  return size === 0 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE);
}

/** Page tokens are opaque to clients; here they encode the offset of the next page. */
function pageTokenOf(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function offsetOf(token: string | undefined): number | undefined {
  if (token === undefined || token === '') return 0;
  const decoded = Buffer.from(token, 'base64url').toString('utf8');
  if (!decoded.startsWith('offset:')) return undefined;
  const offset = Number(decoded.slice('offset:'.length));
  return Number.isInteger(offset) && offset >= 0 ? offset : undefined;
}
