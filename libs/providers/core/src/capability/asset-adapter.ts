import type { AdapterContext } from '../adapter-context';
import type { JsonObject } from '../json-object.util';

/**
 * The asset capability: the control-plane calls of a library of uploaded references (groups of
 * assets that later generations cite by id). Typed loosely on purpose, request and answer as JSON
 * objects in the gateway's terms, until the asset issue refines them from the routes that use them.
 * Every call throws UpstreamError for an upstream failure. Members are methods for the reason given
 * on TextAdapter.
 */
export interface AssetAdapter<Credentials = unknown, Settings = unknown> {
  createGroup(request: JsonObject, context: AdapterContext<Credentials, Settings>): Promise<JsonObject>;
  createAsset(request: JsonObject, context: AdapterContext<Credentials, Settings>): Promise<JsonObject>;
  getAsset(assetId: string, context: AdapterContext<Credentials, Settings>): Promise<JsonObject>;
  list(query: JsonObject, context: AdapterContext<Credentials, Settings>): Promise<JsonObject>;
  update(
    assetId: string,
    changes: JsonObject,
    context: AdapterContext<Credentials, Settings>,
  ): Promise<JsonObject>;
  delete(assetId: string, context: AdapterContext<Credentials, Settings>): Promise<void>;
}
