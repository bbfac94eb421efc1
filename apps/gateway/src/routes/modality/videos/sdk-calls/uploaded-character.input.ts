import type { FastifyRequest } from 'fastify';
import type { UploadedCharacter } from '../../../family/delta/character-creation.service';
import { readUploadedCharacter } from './uploaded-character.reader';

/**
 * Reads the upload before the pipeline (reading is asynchronous, the pipeline's read is not) and keeps
 * a refusal for the pipeline's read to throw: refused uploads are answered and logged like any refusal.
 */
export async function uploadedCharacterReader(
  request: FastifyRequest,
  body: unknown,
): Promise<() => UploadedCharacter> {
  try {
    const upload = await readUploadedCharacter(request, body);
    return () => upload;
  } catch (error) {
    return () => {
      throw error;
    };
  }
}
