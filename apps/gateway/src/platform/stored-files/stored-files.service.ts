import { Inject, Injectable } from '@nestjs/common';
import {
  UnsatisfiableRangeError,
  type ByteRange,
  type ObjectStore,
  type StoredObjectContent,
} from '@gateway/storage';
import { GatewayError } from '@gateway/errors';
import { OBJECT_STORE } from '../infrastructure/tokens';
import { parseRangeHeader, type RequestedRange } from './range-header.util';

const NOT_FOUND = 'No file has this id, or it has expired.';

/** A range past the end of a file: the 416, and the size its Content-Range names. */
export class UnsatisfiableFileRange extends GatewayError {
  constructor(readonly size: number) {
    super('range_not_satisfiable', `The range starts past the end of the ${size}-byte file.`);
  }
}

/** A stored file as it is answered: its status, the headers that describe it, and its bytes. */
export interface StoredFileAnswer {
  status: 200 | 206;
  headers: Record<string, string | number>;
  body: StoredObjectContent['body'];
}

/** Serves the objects of the store by id, whole or by byte range. */
@Injectable()
export class StoredFilesService {
  constructor(@Inject(OBJECT_STORE) private readonly store: ObjectStore) {}

  /** An unknown, malformed or expired id is a 404; a range past the end an UnsatisfiableFileRange. */
  async read(id: string, rangeHeader: string | undefined): Promise<StoredFileAnswer> {
    const object = await this.get(id, parseRangeHeader(rangeHeader));
    if (!object) throw new GatewayError('not_found', NOT_FOUND);
    const maxAgeSeconds = Math.max(0, Math.floor((object.expiresAt.getTime() - Date.now()) / 1000));
    const headers: Record<string, string | number> = {
      'content-type': object.contentType,
      'accept-ranges': 'bytes',
      'cache-control': `public, max-age=${maxAgeSeconds}, immutable`,
      'x-content-type-options': 'nosniff',
    };
    if (!object.range) {
      return { status: 200, headers: { ...headers, 'content-length': object.size }, body: object.body };
    }
    const { start, end } = object.range;
    return {
      status: 206,
      headers: {
        ...headers,
        'content-range': `bytes ${start}-${end}/${object.size}`,
        'content-length': end - start + 1,
      },
      body: object.body,
    };
  }

  private async get(
    id: string,
    requested: RequestedRange | undefined,
  ): Promise<StoredObjectContent | undefined> {
    try {
      return await this.store.get(id, requested && (await this.byteRangeOf(id, requested)));
    } catch (error) {
      if (error instanceof UnsatisfiableRangeError) throw new UnsatisfiableFileRange(error.size);
      throw error;
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
