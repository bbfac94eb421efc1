import { Busboy, type BusboyFileStream, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error';

export interface UploadedFile {
  /** The form field it came in (`image`, `image[]`, `mask` …). */
  field: string;
  bytes: Buffer;
}

/** A multipart body read whole: text parts by name (in order, repeats kept) and the files. */
export interface MultipartForm {
  fields: Map<string, string[]>;
  files: UploadedFile[];
}

export interface MultipartLimits {
  /** One file. */
  fileBytes: number;
  /** Every file together. */
  totalBytes: number;
  files: number;
  fields: number;
  /** One text part. */
  fieldBytes: number;
}

/**
 * Reads a multipart body that the route's content-type parser left unread (see
 * multipart-body.parser.ts) into memory, within `limits`. A file or the files together over their
 * size limit is a 413; a malformed body, too many parts or a text part over its limit is a 400. On
 * refusal the rest of the body is read and dropped, so the connection stays usable.
 */
export function readMultipartForm(request: FastifyRequest, limits: MultipartLimits): Promise<MultipartForm> {
  return new Promise<MultipartForm>((resolve, reject) => {
    const form: MultipartForm = { fields: new Map(), files: [] };
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: request.headers as BusboyHeaders,
        limits: {
          fileSize: limits.fileBytes,
          files: limits.files,
          fields: limits.fields,
          fieldSize: limits.fieldBytes,
          parts: limits.files + limits.fields,
        },
      });
    } catch (error) {
      reject(malformed(error));
      return;
    }
    let totalBytes = 0;
    let failed = false;
    // 'finish' can come before the last file stream has ended: the form is complete when both have.
    let openFiles = 0;
    let parsed = false;
    const resolveWhenComplete = (): void => {
      if (parsed && openFiles === 0 && !failed) resolve(form);
    };
    const fail = (error: GatewayError): void => {
      if (failed) return;
      failed = true;
      request.raw.unpipe(parser);
      request.raw.resume();
      reject(error);
    };
    parser.on('file', (field: string, stream: BusboyFileStream) => {
      const chunks: Buffer[] = [];
      openFiles += 1;
      stream.on('data', (chunk: Buffer) => {
        totalBytes += chunk.length;
        if (totalBytes > limits.totalBytes)
          fail(tooLarge(`The files together exceed ${limits.totalBytes} bytes.`));
        else if (!failed) chunks.push(chunk);
      });
      // A body that ends inside a file fails the file's stream; with no listener that error would end
      // the process.
      stream.on('error', (error: unknown) => fail(malformed(error)));
      stream.on('limit', () =>
        fail(tooLarge(`The file in '${field}' exceeds ${limits.fileBytes} bytes.`, field)),
      );
      stream.on('end', () => {
        openFiles -= 1;
        if (!failed) form.files.push({ field, bytes: Buffer.concat(chunks) });
        resolveWhenComplete();
      });
    });
    parser.on('field', (name: string, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
      if (valueTruncated) fail(invalid(`The form field '${name}' exceeds ${limits.fieldBytes} bytes.`, name));
      else form.fields.set(name, [...(form.fields.get(name) ?? []), value]);
    });
    parser.on('filesLimit', () => fail(invalid(`At most ${limits.files} files may be uploaded.`)));
    parser.on('fieldsLimit', () => fail(invalid(`At most ${limits.fields} form fields may be sent.`)));
    parser.on('partsLimit', () =>
      fail(invalid(`At most ${limits.files + limits.fields} form parts may be sent.`)),
    );
    parser.on('error', (error: unknown) => fail(malformed(error)));
    parser.on('finish', () => {
      parsed = true;
      resolveWhenComplete();
    });
    request.raw.on('error', (error: unknown) => fail(malformed(error)));
    request.raw.pipe(parser);
  });
}

function tooLarge(message: string, param?: string): GatewayError {
  return new GatewayError('payload_too_large', message, { param });
}

function invalid(message: string, param?: string): GatewayError {
  return GatewayError.invalidRequest(message, param);
}

function malformed(error: unknown): GatewayError {
  const reason = error instanceof Error ? error.message : String(error);
  return GatewayError.invalidRequest(`The multipart body could not be read: ${reason}.`, '(body)');
}
