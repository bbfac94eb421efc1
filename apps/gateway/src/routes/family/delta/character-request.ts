import { GatewayError } from '@gateway/errors';
import { firstFaultRefused } from '../../../platform/http/body-validation.util';
import {
  declaredBodyOf,
  type BodyDeclaration,
  type DeclaredBody,
} from '../../../platform/http/declared-body';
import {
  CharacterRequestDto,
  DEFAULT_CHARACTER_MODEL,
  DEFAULT_CHARACTER_NAME,
  UploadedCharacterRequestDto,
  windowBoundsOf,
} from './character-request.dto';

/**
 * The body of `POST /delta/v1/characters` (JSON):
 *
 * | Field | Type | Rule |
 * |---|---|---|
 * | `model` | string | optional, default `delta-2`; a delta model (`delta-*`) some channel serves |
 * | `name` | string | optional, default `character`; 1–80 characters, no control characters |
 * | `character_url` | string | required; the http(s) URL of the clip, fetched through the SSRF-safe fetcher |
 * | `character_timestamps` | string or array | required; the window of the clip the character is taken from, in seconds: `"start,end"` (`"1.5,4"`) or `[start, end]` (`[1.5, 4]`); 0 ≤ start < end, 1 to 10 seconds long |
 *
 * Other fields are ignored.
 */
export interface CharacterRequest {
  model: string;
  name: string;
  url: string;
  window: { start: number; end: number };
}

/** The route's body: the DTO, its first fault refused in the route's words (`name must be …`). */
export const CHARACTER_BODY: BodyDeclaration<CharacterRequestDto> = {
  dto: CharacterRequestDto,
  validate: (dto, body) => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw GatewayError.invalidRequest('The body must be a JSON object.', '(body)');
    }
    return firstFaultRefused(dto, body);
  },
};

/**
 * Reads and checks the body (`body` as the route declared it, or as sent, then validated by the same
 * declaration); every refusal is a 400 naming the field.
 */
export function characterRequestOf(body: DeclaredBody<CharacterRequestDto> | unknown): CharacterRequest {
  const fields = declaredBodyOf(body, CHARACTER_BODY).fields();
  const [start, end] = windowBoundsOf(fields.character_timestamps) as [number, number];
  return {
    model: fields.model ?? DEFAULT_CHARACTER_MODEL,
    name: fields.name?.trim() ?? DEFAULT_CHARACTER_NAME,
    url: fields.character_url,
    window: { start, end },
  };
}

/** The uploaded character's text fields: the DTO, its first fault refused in the route's words. */
export const UPLOADED_CHARACTER_BODY: BodyDeclaration<UploadedCharacterRequestDto> = {
  dto: UploadedCharacterRequestDto,
  validate: (dto, fields) => firstFaultRefused(dto, fields),
};

/** The uploaded character's model and name, its form's fields validated by UPLOADED_CHARACTER_BODY. */
export function uploadedCharacterFieldsOf(fields: Record<string, unknown>): { model: string; name: string } {
  // Only the form's text fields the DTO names: the others, whatever their names, are ignored.
  const named = { model: fields['model'], name: fields['name'] };
  const { model, name } = declaredBodyOf(named, UPLOADED_CHARACTER_BODY).fields();
  return { model: model ?? DEFAULT_CHARACTER_MODEL, name: name?.trim() ?? DEFAULT_CHARACTER_NAME };
}
