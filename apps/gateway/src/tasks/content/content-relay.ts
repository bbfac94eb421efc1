import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import {
  RequestCancellation,
  type CancellationSignal,
  type VideoContentVariant,
} from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';
import type { OpenedContent } from './opened-content';
import { DEFAULT_CONTENT_TYPES } from '../../routes/modality/videos/content/video-content-variant';

/** The upstream's headers a client needs to read bytes and ranges; nothing about the upstream itself. */
const RELAYED_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
];

/** Whether an upstream answer is bytes the client can have as they are: the whole body or its range. */
export function isRelayable(status: number): boolean {
  return status === 200 || status === 206;
}

/**
 * Streams the upstream's bytes to the client as they arrive (never buffered whole), with its status
 * (200, or 206 for a range) and the headers that describe them. A 416 becomes the gateway's own 416,
 * keeping the upstream's `Content-Range`, which names the size.
 */
export async function relayContent(
  reply: FastifyReply,
  content: OpenedContent,
  variant: VideoContentVariant,
): Promise<void> {
  if (content.status === 416) {
    await content.discard();
    const contentRange = headerOf(content, 'content-range');
    if (contentRange !== undefined) reply.header('content-range', contentRange);
    throw new GatewayError('range_not_satisfiable', 'The range starts past the end of the content.', {
      param: 'Range',
    });
  }
  for (const name of RELAYED_HEADERS) {
    const value = headerOf(content, name);
    if (value !== undefined && (name !== 'content-range' || content.status === 206))
      reply.header(name, value);
  }
  if (headerOf(content, 'content-type') === undefined)
    reply.header('content-type', DEFAULT_CONTENT_TYPES[variant]);
  reply.header('x-content-type-options', 'nosniff').code(content.status);
  if (reply.request.method === 'HEAD') {
    // Fastify's HEAD route would read the whole upstream body only to drop it. An empty stream,
    // unlike no body at all, keeps the Content-Length the upstream announced.
    await content.discard();
    await reply.send(Readable.from([]));
    return;
  }
  await reply.send(Readable.from(content.body, { objectMode: false }));
}

/**
 * Opens content for a request and relays it: the opening is cancelled when the client leaves, and an
 * error then has nobody to answer (the upstream fetch was ended with the client's connection).
 */
export async function relayOpenedContent(
  reply: FastifyReply,
  open: (signal: CancellationSignal) => Promise<OpenedContent>,
  variant: VideoContentVariant,
): Promise<void> {
  const cancellation = new RequestCancellation();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) cancellation.abort(new Error('client disconnected'));
  });
  try {
    await relayContent(reply, await open(cancellation), variant);
  } catch (error) {
    if (cancellation.aborted) return;
    throw error;
  }
}

function headerOf(content: OpenedContent, name: string): string | undefined {
  const value = content.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
