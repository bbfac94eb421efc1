import { Busboy, type BusboyFileStream, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '@gateway/errors';

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
 * Refuses bytes that are not UTF-8 instead of replacing them, as the JSON body parser does: a text
 * part is stored and forwarded as the client's text, so it must be exactly what was sent.
 */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** busboy's own rule for what is a file: a part with a file name, or one sent as raw bytes. */
function isFilePart(filename: string | undefined, mimeType: string | undefined): boolean {
  return filename !== undefined || mimeType === 'application/octet-stream';
}

/**
 * Reads a multipart body that the route's content-type parser left unread (see
 * multipart-body.parser.ts) into memory, within `limits`. A file or the files together over their
 * size limit is a 413; a malformed body, too many parts, a text part over its limit or not UTF-8 is
 * a 400. On refusal the rest of the body is read and dropped, so the connection stays usable; while
 * more is still to come, the refusal closes it after a bounded read (lingering-close.ts).
 *
 * busboy hands every part over as bytes (`isPartAFile`), text parts included: it would decode a text
 * part itself, replacing bytes that are not UTF-8 with U+FFFD, or in whatever charset the part
 * declares. The reader decodes them, strictly UTF-8 whatever the part declares, like a JSON body.
 */
export function readMultipartForm(request: FastifyRequest, limits: MultipartLimits): Promise<MultipartForm> {
  return new Promise<MultipartForm>((resolve, reject) => {
    const form: MultipartForm = { fields: new Map(), files: [] };
    let parser: BusboyInstance;
    try {
      parser = new Busboy({
        headers: request.headers as BusboyHeaders,
        isPartAFile: () => true,
        limits: {
          fileSize: limits.fileBytes,
          // Text parts are files to busboy (see above): the reader counts each kind itself.
          files: limits.files + limits.fields,
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
    const readFilePart = (field: string, stream: BusboyFileStream): void => {
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
    };
    const readTextPart = (name: string, stream: BusboyFileStream): void => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      const tooLong = () => invalid(`The form field '${name}' exceeds ${limits.fieldBytes} bytes.`, name);
      openFiles += 1;
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > limits.fieldBytes) fail(tooLong());
        else if (!failed) chunks.push(chunk);
      });
      stream.on('error', (error: unknown) => fail(malformed(error)));
      stream.on('limit', () => fail(tooLong()));
      stream.on('end', () => {
        openFiles -= 1;
        const value = failed ? undefined : utf8TextOf(Buffer.concat(chunks));
        if (value === undefined) fail(invalid(`The form field '${name}' is not valid UTF-8 text.`, name));
        else form.fields.set(name, [...(form.fields.get(name) ?? []), value]);
        resolveWhenComplete();
      });
    };
    let fileCount = 0;
    let fieldCount = 0;
    parser.on('file', (field: string, stream: BusboyFileStream, filename: string, _encoding, mimeType) => {
      if (isFilePart(filename, mimeType)) {
        if (++fileCount > limits.files) fail(invalid(`At most ${limits.files} files may be uploaded.`));
        readFilePart(field, stream);
      } else {
        if (++fieldCount > limits.fields) fail(invalid(`At most ${limits.fields} form fields may be sent.`));
        readTextPart(field, stream);
      }
    });
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

function utf8TextOf(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
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
