import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import {
  UnsatisfiableRangeError,
  type ByteRange,
  type ObjectStore,
  type StoredObjectContent,
} from '@gateway/storage';
import { GatewayError } from '../errors/gateway-error';
import { OBJECT_STORE } from '../infrastructure/tokens';
import { parseRangeHeader, type RequestedRange } from './range-header.util';

const NOT_FOUND = 'No file has this id, or it has expired.';

/** Serves the objects of the store by id, whole or by byte range. */
@Injectable()
export class StoredFilesService {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  /** An unknown, malformed or expired id is a 404; a range past the end a 416 naming the size. */
  async serve(id: string, rangeHeader: string | undefined, reply: FastifyReply): Promise<void> {
    const object = await this.read(id, parseRangeHeader(rangeHeader), reply);
    if (!object) throw new GatewayError('not_found', NOT_FOUND);
    const maxAgeSeconds = Math.max(0, Math.floor((object.expiresAt.getTime() - Date.now()) / 1000));
    reply
      .header('content-type', object.contentType)
      .header('accept-ranges', 'bytes')
      .header('cache-control', `public, max-age=${maxAgeSeconds}, immutable`)
      .header('x-content-type-options', 'nosniff');
    if (object.range) {
      const { start, end } = object.range;
      reply
        .code(206)
        .header('content-range', `bytes ${start}-${end}/${object.size}`)
        .header('content-length', end - start + 1);
    } else {
      reply.code(200).header('content-length', object.size);
    }
    await reply.send(object.body);
  }

  /** The object, or the 416 (its Content-Range, which names the size, already on the reply). */
  private async read(
    id: string,
    requested: RequestedRange | undefined,
    reply: FastifyReply,
  ): Promise<StoredObjectContent | undefined> {
    try {
      return await this.store.get(id, requested && (await this.byteRangeOf(id, requested)));
    } catch (error) {
      if (!(error instanceof UnsatisfiableRangeError)) throw error;
      reply.header('content-range', `bytes */${error.size}`);
      throw new GatewayError(
        'range_not_satisfiable',
        `The range starts past the end of the ${error.size}-byte file.`,
      );
    }
  }

  /** A suffix range needs the size first; an empty file has no last bytes to give. */
  private async byteRangeOf(id: string, requested: RequestedRange): Promise<ByteRange | undefined> {
    if (!('suffixLength' in requested)) return requested;
    const info = await this.store.head(id);
    if (!info) return undefined;
    if (info.size === 0) throw new UnsatisfiableRangeError(0);
    return { start: Math.max(0, info.size - requested.suffixLength) };
  }
}
