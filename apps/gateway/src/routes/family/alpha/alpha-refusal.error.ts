import type { VideoPlan } from '@gateway/providers-core';
import { GatewayError } from '@gateway/errors';

/** A §3.6 reason the alpha routes give a refusal of their own. */
export type AlphaReason =
  | 'BadRequest'
  | 'FieldLacking'
  | 'FieldUnwanted'
  | 'FieldItemCountOutOfRange'
  | 'FieldInvalid'
  | 'ImageDownloadFailure'
  | 'ImageFormatInvalid'
  | 'ModelUnavailable';

/** A refusal of one field of an alpha request, with the reason the alpha envelope shows. */
export function alphaFieldError(reason: AlphaReason, param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', message, { param, upstreamCode: reason });
}

/** The rules word a missing field `<field> is required …`. */
const REQUIRED = /^\S+ is required\b/;

/**
 * The alpha rules' refusal (the field and the rule) as the alpha routes answer it: a model the family
 * does not have is `ModelUnavailable`, a missing field `FieldLacking`, any other `FieldInvalid`; an
 * image over 50 MB keeps the rules' 413.
 */
export function alphaRefusalError(refusal: Extract<VideoPlan, { ok: false }>): GatewayError {
  const reason: AlphaReason =
    refusal.param === 'model'
      ? 'ModelUnavailable'
      : REQUIRED.test(refusal.message)
        ? 'FieldLacking'
        : 'FieldInvalid';
  const code = refusal.httpStatus === 413 ? 'payload_too_large' : 'invalid_request';
  return new GatewayError(code, refusal.message, { param: refusal.param, upstreamCode: reason });
}
