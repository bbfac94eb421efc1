import type { ChannelConnection, ChannelType } from '@gateway/providers-core';

/** An enabled channel able to serve one model, with everything a call to it needs. */
export interface ChannelCandidate {
  readonly id: string;
  readonly name: string;
  readonly type: ChannelType;
  /**
   * Base URL, credentials and settings, parsed by the type's definition when the catalog loaded the
   * row: what the adapter context carries. Never log it (the credentials are in clear).
   */
  readonly connection: ChannelConnection;
  /** Model id sent upstream (the channel's mapping of the public model name). */
  readonly upstreamModel: string;
  /** Higher goes first. */
  readonly priority: number;
  /** Share of traffic among candidates of the same priority. */
  readonly weight: number;
}
