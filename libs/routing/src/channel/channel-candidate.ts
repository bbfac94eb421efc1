import type { ChannelType } from '@gateway/providers-core';

/** An enabled channel able to serve one model, with everything a call to it needs. */
export interface ChannelCandidate {
  readonly id: string;
  readonly name: string;
  readonly type: ChannelType;
  readonly baseUrl: string;
  /** Decrypted channel secret. Never log it. */
  readonly secret: string;
  /** Model id sent upstream (the channel's mapping of the public model name). */
  readonly upstreamModel: string;
  /** Higher goes first. */
  readonly priority: number;
  /** Share of traffic among candidates of the same priority. */
  readonly weight: number;
}
