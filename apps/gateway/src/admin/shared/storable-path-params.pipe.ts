import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { hasUnstorableText, UNSTORABLE_TEXT_PROBLEM } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';

/**
 * Refuses a path parameter Postgres cannot compare (`/admin/keys/%00`): a NUL in a query parameter
 * fails the statement, which would be a 500. Bodies and query strings are judged with their DTO
 * (ADMIN_INPUT_RULES); the path is the one input an admin route reads without one.
 */
@Injectable()
export class StorablePathParamsPipe implements PipeTransform {
  transform(value: unknown, { type, data }: ArgumentMetadata): unknown {
    if (type === 'param' && typeof value === 'string' && hasUnstorableText(value)) {
      const param = data ?? '(path)';
      throw GatewayError.invalidRequest(`${param} ${UNSTORABLE_TEXT_PROBLEM}.`, param);
    }
    return value;
  }
}
