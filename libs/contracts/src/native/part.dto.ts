import {
  BooleanField,
  StringField,
  Base64Field,
  ForwardedUrlField,
} from '../validation/scalar-field.decorator';
import { JsonObjectField, NestedField } from '../validation/nested-field.decorator';
import { ValidateObjectRule } from '../validation/rule.decorator';
import { PART_KINDS } from './native-values.constants';
import { TEXT_REQUEST_LIMITS } from '../validation/request-limits.constants';

const MIME_TYPE = /^[\w.+-]+\/[\w.+-]+(?:\s*;.*)?$/;
const MIME_TYPE_RULES = {
  nonEmpty: true,
  maxLength: TEXT_REQUEST_LIMITS.identifierLength,
  pattern: MIME_TYPE,
  patternHint: 'a MIME type such as image/png',
};
const NAME_RULES = { nonEmpty: true, maxLength: TEXT_REQUEST_LIMITS.identifierLength };
const CALL_ID_RULES = { optional: true, maxLength: TEXT_REQUEST_LIMITS.identifierLength };

/** Fields a part may carry next to its one kind. */
const PART_COMPANIONS: readonly string[] = ['thought', 'thoughtSignature'];

export class InlineDataDto {
  @StringField({ description: 'MIME type of the data.', example: 'image/png', ...MIME_TYPE_RULES })
  mimeType: string;

  @Base64Field({ description: 'The bytes, Base64-encoded.' })
  data: string;
}

export class FileDataDto {
  @StringField({ description: 'MIME type of the file.', optional: true, ...MIME_TYPE_RULES })
  mimeType?: string;

  /**
   * The upstream fetches the file itself, so the URI is a URL handed to it: the one forwarded-URL policy
   * (docs/urls.md). No other scheme or file reference is documented for this wire, so none passes.
   */
  @ForwardedUrlField({
    description: 'URL of the file: a public http(s) URL, which the upstream fetches.',
    maxLength: TEXT_REQUEST_LIMITS.urlLength,
  })
  fileUri: string;
}

export class FunctionCallDto {
  @StringField({ description: 'Name of the function to call.', ...NAME_RULES })
  name: string;

  @JsonObjectField({ description: 'Arguments, as a JSON object.', optional: true })
  args?: Record<string, unknown>;

  @StringField({ description: 'Call id, echoed in the matching function response.', ...CALL_ID_RULES })
  id?: string;
}

export class FunctionResponseDto {
  @StringField({ description: 'Name of the function that was called.', ...NAME_RULES })
  name: string;

  @JsonObjectField({ description: 'What the function returned, as a JSON object.' })
  response: Record<string, unknown>;

  @StringField({ description: 'Id of the call this answers.', ...CALL_ID_RULES })
  id?: string;
}

function checkExactlyOnePartKind(part: Record<string, unknown>): string | undefined {
  const kinds = PART_KINDS.filter((kind) => part[kind] !== undefined);
  if (kinds.length === 1) return undefined;
  const found =
    kinds.length > 1
      ? kinds
      : Object.keys(part).filter((key) => part[key] !== undefined && !PART_COMPANIONS.includes(key));
  return `must have exactly one of ${PART_KINDS.join(', ')} (found: ${found.length > 0 ? found.join(', ') : 'none'})`;
}

/** One piece of a content item; exactly one kind per part. */
@ValidateObjectRule('exactlyOnePartKind', checkExactlyOnePartKind)
export class PartDto {
  @StringField({ description: 'Text.', optional: true })
  text?: string;

  @NestedField(() => InlineDataDto, { description: 'Bytes sent inline (images, audio …).', optional: true })
  inlineData?: InlineDataDto;

  @NestedField(() => FileDataDto, { description: 'A file referenced by URI.', optional: true })
  fileData?: FileDataDto;

  @NestedField(() => FunctionCallDto, { description: 'A function call made by the model.', optional: true })
  functionCall?: FunctionCallDto;

  @NestedField(() => FunctionResponseDto, { description: 'The result of a function call.', optional: true })
  functionResponse?: FunctionResponseDto;

  @BooleanField({ description: 'Marks a thought summary, not answer text.', optional: true })
  thought?: boolean;

  @StringField({ description: 'Opaque reasoning state, echoed back in later turns.', optional: true })
  thoughtSignature?: string;
}
