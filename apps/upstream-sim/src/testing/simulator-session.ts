import { channelTypeDefinition } from '@gateway/providers';
import {
  createUndiciHttpClient,
  type AdapterContext,
  type ClosableUpstreamHttpClient,
  type PlainKeyCredentials,
} from '@gateway/providers-core';
import { plainKeyContext } from '@gateway/providers-core/testing';
import { startSimulator, type JournalEntry, type RunningSimulator } from '@gateway/simulators';

export interface SimulatorSession {
  /**
   * The context a plain-key channel on the simulator is called with; `directives` script the
   * simulator through the channel's base URL, as a channel row can.
   */
  contextFor(apiKey: string, directives?: string): AdapterContext<PlainKeyCredentials>;
  /**
   * The context of a `channelType` channel whose key is `secret`, parsed by the registered type as the
   * gateway parses a row's (for types whose key is not a plain key); `directives` as for contextFor.
   */
  parsedKeyContextFor(channelType: string, secret: string, directives?: string): AdapterContext;
  /** The simulator's own URL, for its control routes (`/__sim/…`). */
  baseUrl(): string;
  /** The last request the simulator received, as its journal recorded it. */
  lastReceived(): Promise<JournalEntry>;
  /** The last request's body, parsed as JSON. */
  lastReceivedJson(): Promise<Record<string, unknown>>;
}

/**
 * Starts the simulator and an HTTP client before the enclosing describe block's tests and closes both
 * after them. Call it at the top of a describe block.
 */
export function useSimulatorSession(): SimulatorSession {
  let simulator: RunningSimulator | undefined;
  let http: ClosableUpstreamHttpClient | undefined;
  const running = (): { simulator: RunningSimulator; http: ClosableUpstreamHttpClient } => {
    if (!simulator || !http) throw new Error('the simulator session is used outside its describe block');
    return { simulator, http };
  };

  beforeAll(async () => {
    simulator = await startSimulator();
    http = createUndiciHttpClient();
  });
  afterAll(async () => {
    await http?.close();
    await simulator?.close();
  });

  const lastReceived = async (): Promise<JournalEntry> => {
    const url = `${running().simulator.url}/__sim/requests?limit=1`;
    const entries = (await (await fetch(url)).json()) as JournalEntry[];
    return entries[0];
  };
  const contextFor = (apiKey: string, directives = ''): AdapterContext<PlainKeyCredentials> => {
    const { simulator: started, http: client } = running();
    const baseUrl = directives ? `${started.url}/@${directives}` : started.url;
    return plainKeyContext({ baseUrl, apiKey, http: client });
  };
  return {
    contextFor,
    parsedKeyContextFor: (channelType, secret, directives = '') => {
      const parsed = channelTypeDefinition(channelType)?.parseCredentials(secret);
      if (!parsed?.ok) throw new Error(`the ${channelType} key does not parse`);
      const context = contextFor('unused', directives);
      return { ...context, channel: { ...context.channel, credentials: parsed.credentials } };
    },
    baseUrl: () => running().simulator.url,
    lastReceived,
    lastReceivedJson: async () => JSON.parse((await lastReceived()).body),
  };
}
