/** A finished task's bytes as an upstream answered for them, before the gateway relays or refuses them. */
export interface OpenedContent {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: AsyncIterable<Buffer>;
  /** Frees the connection of a body that will not be relayed (an error page, a 416). */
  discard(): Promise<void>;
}

/** Reads no more than the first chunk: an unstarted body's generator would skip its own clean-up. */
export async function discardBody(body: AsyncIterable<Buffer>): Promise<void> {
  for await (const _chunk of body) break;
}
