import { FastifyRequest } from 'fastify';
import { JournalForm } from './request-journal';

export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** A multipart body read whole: text parts by name (repeated names become arrays) and the files. */
export interface MultipartForm {
  fields: Record<string, string | string[]>;
  files: UploadedFile[];
}

export type MultipartFormResult =
  { form: MultipartForm } | { failure: { status: 400 | 413; message: string } };

/** Upload limits of the simulated upload routes; files are held in memory, so they stay bounded. */
export const MULTIPART_LIMITS = {
  fileSize: 32 * 1024 * 1024,
  files: 32,
  fields: 64,
  fieldSize: 1024 * 1024,
  parts: 96,
};

/**
 * Reads a `multipart/form-data` body through @fastify/multipart (registered on the upload routes).
 * A body that is not multipart, is malformed or breaks a limit becomes a failure the wire renders in
 * its own envelope.
 */
export async function readMultipartForm(request: FastifyRequest): Promise<MultipartFormResult> {
  if (!request.isMultipart()) {
    return {
      failure: { status: 400, message: 'Invalid Content-Type header; expected multipart/form-data.' },
    };
  }
  const form: MultipartForm = { fields: {}, files: [] };
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        form.files.push({
          field: part.fieldname,
          filename: part.filename,
          contentType: part.mimetype,
          bytes,
        });
      } else {
        addField(form.fields, part.fieldname, String(part.value));
      }
    }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode === 413 ? 413 : 400;
    const reason = error instanceof Error ? error.message : String(error);
    return { failure: { status, message: `Could not parse multipart form: ${reason}.` } };
  }
  return { form };
}

/** The form as the journal keeps it: text parts verbatim, files by name, type and length. */
export function summariseForm(form: MultipartForm): JournalForm {
  return {
    fields: form.fields,
    files: form.files.map(({ field, filename, contentType, bytes }) => ({
      field,
      filename,
      contentType,
      bytes: bytes.length,
    })),
  };
}

function addField(fields: Record<string, string | string[]>, name: string, value: string): void {
  const existing = fields[name];
  if (existing === undefined) fields[name] = value;
  else fields[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}
